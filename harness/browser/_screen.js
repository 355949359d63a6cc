// The customer screen, read and watched inside the page in one call.
//
// Called as page.evaluate(source, args). Every selector arrives as a list of CSS alternatives
// (the harness turns Playwright-only selectors into attribute marks first); the first
// alternative with a match in the page is the region. Only visible text is read (innerText of
// elements that are displayed), never hidden text or network data.
//
// args.mode:
//   "read"   every region (a ScreenReading) plus the agent replies and their count;
//   "probe"  what a wait and an action baseline need: reply count, latest reply, complete;
//   "fresh"  whether a new reply has appeared since args.prev, complete or not, and whether
//            the customer acted while the product was busy;
//   "wait"   once the reply is complete (and new, when args.prev is given): the conversation
//            pane is scrolled to its latest reply, as the customer would, so that a
//            screenshot taken next shows it, and the screen is read as by "read" in the same
//            call (what a step reads next anyway); false until then;
//   "upload" what shows an uploaded file: occurrences of args.name, ack elements, error text;
//   "upload_wait" "acknowledged" or "refused" once that differs from args.before, else false.
(args) => {
  const R = args.regions;
  const C = args.completion;
  // args.marks (watching with Playwright-only selectors): how many elements each mark had
  // when it was set; a different count means the page re-rendered them: "stale", mark again.
  for (const [sel, n] of Object.entries(args.marks || {})) {
    if (document.querySelectorAll(sel).length !== n) return "stale";
  }
  const visible = (el) => {
    if (!el) return false;
    const style = window.getComputedStyle(el);
    if (style.visibility === "hidden" || style.display === "none") return false;
    return el.getClientRects().length > 0;
  };
  const resolve = (alts) => {
    for (const s of alts || []) {
      const els = document.querySelectorAll(s);
      if (els.length) return Array.from(els);
    }
    return [];
  };
  const shown = (alts) => resolve(alts).filter(visible);
  const text = (el) => (el.innerText || "").trim();
  const first = (alts) => { const els = shown(alts); return els.length ? text(els[0]) : ""; };

  // Busy placeholders may share the reply class: they are never replies. A reply holding a
  // busy element (a bubble with animated dots) is a placeholder only while that shows: a
  // framework may keep the dots in the bubble, hidden, once the text has come.
  const busyEls = resolve(C.busy);
  const busyShown = busyEls.filter(visible);
  const isBusy = (el) => busyEls.some((b) => b === el || b.contains(el)) ||
    busyShown.some((b) => el.contains(b));
  const replies = resolve(R.agent_message).filter((el) => !isBusy(el));
  const shownReplies = replies.filter(visible);
  const latestEl = shownReplies.length ? shownReplies[shownReplies.length - 1] : null;
  const latest = latestEl ? text(latestEl) : "";

  const idle = () => {
    if (C.attribute) {
      const el = resolve(C.selector)[0];
      if (!el || el.getAttribute(C.attribute) !== C.value) return false;
    }
    if (busyShown.length) return false;
    if (C.enabled.length) {
      const el = resolve(C.enabled)[0];
      if (el && (el.disabled || el.getAttribute("aria-disabled") === "true")) return false;
    }
    return true;
  };
  // stable_ms: the conversation's text unchanged, and every other condition holding, for that
  // long. A busy indicator that goes for a moment between two runs of the product (a
  // framework's chained events or reruns) starts the clock again when it comes back.
  // Only time the page is seen running counts: a gap between two readings counts for at most
  // MAX_STEP_MS. On a machine so busy that the page gets no time for a while, the page's own
  // timers (a reply's second part) come late, and may come after the reading that ends the
  // gap: the window then still has to pass with the page running.
  const MAX_STEP_MS = 100;
  const complete = () => {
    const ok = idle();
    if (!C.stable_ms) return ok;
    const conv = ok ? resolve(R.conversation)[0] : null;
    const sig = ok ? (conv ? conv.innerText : "") + "\u0000" + replies.length : null;
    const now = performance.now();
    let st = window.__claimsHarnessStable;
    if (!st) st = window.__claimsHarnessStable = { sig: null, last: now, ran: 0 };
    if (sig === null || st.sig !== sig) { st.sig = sig; st.ran = 0; }
    else st.ran += Math.min(Math.max(now - st.last, 0), MAX_STEP_MS);
    st.last = now;
    return sig !== null && st.ran >= C.stable_ms;
  };

  // A new reply since prev: more replies, or the latest changed in place — only more replies
  // while the product still finishes what it was doing when the customer acted (args.settle;
  // _screen_host.js), as what it changes in place then belongs to the screen acted on.
  const isFresh = (prev) => !prev || replies.length > prev.count ||
    (!args.settle && prev.latest !== null && latest !== "" && latest !== prev.latest);

  if (args.mode === "probe") {
    return { count: replies.length, latest: latest, complete: complete() };
  }
  if (args.mode === "fresh") {
    // args.seenFresh: the wait that has just run out saw the new reply on a frame whose
    // marks held (_screen_host.js), though it may have been rendered anew since.
    return { fresh: isFresh(args.prev) || !!args.seenFresh,
             acted_while_busy: !!args.actedWhileBusy };
  }
  if (args.mode === "wait") {
    if (args.ready && args.ready.length && !resolve(args.ready).length) return false;
    const fresh = isFresh(args.prev);
    // Told to the host (args.sawFresh), which remembers it for the whole wait: a reply that
    // has come but not completed when the wait runs out is still known to have come, even
    // when the page renders it anew faster than it can be marked again.
    if (fresh && args.prev) args.sawFresh = true;
    // complete() runs even when not fresh yet, so the stability clock sees every change.
    const done = complete();
    if (!(fresh && done)) return false;
    for (const c of resolve(R.conversation)) {
      for (const el of [c, c.parentElement, ...c.querySelectorAll("*")]) {
        if (el && el.scrollHeight > el.clientHeight) el.scrollTop = el.scrollHeight;
      }
    }
    return read();
  }
  if (args.mode === "upload" || args.mode === "upload_wait") {
    const pool = [...shown(R.upload_ack), ...shown(R.customer_message)];
    const source = pool.length ? pool.map(text).join("\n") : first(R.conversation);
    const name = (args.name || "").toLowerCase();
    let count = 0;
    if (name) {
      const hay = source.toLowerCase();
      for (let i = hay.indexOf(name); i >= 0; i = hay.indexOf(name, i + name.length)) count++;
    }
    const marks = { mentions: count, acks: resolve(R.upload_ack).length,
                    error: first(R.upload_error) };
    if (args.mode === "upload") return marks;
    const b = args.before;
    if (marks.mentions > b.mentions || marks.acks > b.acks) return "acknowledged";
    if (marks.error && marks.error !== b.error) return "refused";
    return false;
  }

  return read();

  // mode "read" (and the end of "wait"): every region, the replies and their count
  function read() {
    const inside = (el, alts) => (alts || []).some((s) => el.closest(s));
    const chipEls = shown(R.chips);
    const chipSet = new Set(chipEls);
    const skip = [...(R.composer_send || []), ...(R.sign_in_submit || [])];
    const buttons = shown(R.buttons)
      .filter((b) => !chipSet.has(b) && !skip.some((s) => b.matches(s)))
      .filter((b) => !inside(b, R.sign_in_prompt))
      .filter((b) => !b.disabled)
      .map(text)
      .filter(Boolean);
    const signIn = shown(R.sign_in_prompt);
    const dialogs = shown(R.dialogs).filter((d) => !signIn.includes(d)).map(text).filter(Boolean);
    const problem = !!(latestEl && (R.problem_message || []).some((s) => latestEl.matches(s)));
    return {
      screen: {
        latest_reply: latest,
        chips: chipEls.map(text).filter(Boolean),
        todo: first(R.todo_bar),
        sidebar: first(R.sidebar),
        dialogs: dialogs,
        cards: shown(R.cards).map(text).filter(Boolean),
        facts_panel: first(R.facts_panel),
        upload_error: first(R.upload_error),
        sign_in_prompt: signIn.length > 0,
        buttons: Array.from(new Set(buttons)),
      },
      claim_number_text: first(R.claim_number),
      agent_texts: shownReplies.map(text),
      agent_count: replies.length,
      problem: problem,
    };
  }
}
