// The staff claim page (or waiting list), read in one call: visible texts per region and the
// cells of each row. Selectors arrive as CSS alternatives (see harness/browser/_marks.py); a region
// whose selectors match nothing is reported absent, never guessed.
(args) => {
  const R = args.regions;
  const visible = (el) => {
    if (!el) return false;
    const style = window.getComputedStyle(el);
    if (style.visibility === "hidden" || style.display === "none") return false;
    return el.getClientRects().length > 0;
  };
  const resolve = (alts, root) => {
    for (const s of alts || []) {
      const els = (root || document).querySelectorAll(s);
      if (els.length) return Array.from(els);
    }
    return null;
  };
  const text = (el) => (el.innerText || "").trim();
  const texts = (alts) => {
    const els = resolve(alts);
    return els === null ? null : els.filter(visible).map(text);
  };
  const cell = (row, alts) => {
    const els = resolve(alts, row);
    return els === null ? null : text(els[0]);
  };
  const rows = (rowAlts, cells) => {
    const els = resolve(rowAlts);
    if (els === null) return null;
    return els.filter(visible).map((row) => {
      const out = { _text: text(row) };
      for (const [name, alts] of Object.entries(cells)) out[name] = cell(row, alts);
      return out;
    });
  };
  return {
    triage_class: texts(R.triage_class),
    reason: texts(R.reason),
    urgency: texts(R.urgency),
    review_signal: texts(R.review_signal),
    checks: rows(R.check_row, { id: R.check_id, outcome: R.check_outcome,
                                rests_on: R.check_rests_on }),
    facts: rows(R.fact_row, { key: R.fact_key, value: R.fact_value, state: R.fact_state }),
    waiting: rows(R.waiting_item, { kind: R.waiting_kind, text: R.waiting_text }),
    ready: (args.ready || []).length ? resolve(args.ready) !== null : true,
  };
}
