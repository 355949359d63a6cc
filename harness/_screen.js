// Read the customer screen as visible text, one region per profile selector.
// Called as page.evaluate(source, selectors); returns a ScreenReading-shaped object.
(sel) => {
  const visible = (el) => {
    if (!el) return false;
    const style = window.getComputedStyle(el);
    if (style.visibility === "hidden" || style.display === "none") return false;
    return el.getClientRects().length > 0;
  };
  const all = (s) => (s ? Array.from(document.querySelectorAll(s)).filter(visible) : []);
  const text = (el) => (el.innerText || "").trim();
  const first = (s) => { const els = all(s); return els.length ? text(els[0]) : ""; };
  const last = (s) => { const els = all(s); return els.length ? text(els[els.length - 1]) : ""; };
  const inside = (el, s) => !!(s && el.closest(s));

  const chips = all(sel.chips).map(text).filter(Boolean);
  const chipEls = new Set(all(sel.chips));
  const skip = [sel.composer_send, sel.sign_in_submit].filter(Boolean);
  const buttons = all(sel.buttons)
    .filter((b) => !chipEls.has(b) && !skip.some((s) => b.matches(s)))
    .filter((b) => !inside(b, sel.sign_in_prompt))
    .filter((b) => !b.disabled)
    .map(text)
    .filter(Boolean);
  const signIn = all(sel.sign_in_prompt);
  const dialogs = all(sel.dialogs).filter((d) => !signIn.includes(d)).map(text).filter(Boolean);
  const claim = first(sel.claim_number);
  const replies = all(sel.agent_message);
  const lastReply = replies.length ? replies[replies.length - 1] : null;
  return {
    latest_reply: last(sel.agent_message),
    chips: chips,
    todo: first(sel.todo_bar),
    sidebar: first(sel.sidebar),
    dialogs: dialogs,
    cards: all(sel.cards).map(text).filter(Boolean),
    facts_panel: first(sel.facts_panel),
    upload_error: first(sel.upload_error),
    sign_in_prompt: signIn.length > 0,
    claim_number_text: claim,
    buttons: Array.from(new Set(buttons)),
    agent_texts: all(sel.agent_message).map(text),
    agent_count: document.querySelectorAll(sel.agent_message).length,
    problem: !!(lastReply && sel.problem_message && lastReply.matches(sel.problem_message)),
  };
}
