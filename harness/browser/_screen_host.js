// Installs the screen function (_screen.js) in the current document, once per document, with
// the selectors of one Screen (harness/browser/_screen.py), and what every later call goes through:
//
//   host.call(a)   the screen function with the installed selectors and a's own arguments;
//   host.watch(a)  the same every animation frame until it answers something truthy, or
//                  until a.timeout_ms has passed (null); a newer watch ends an older one;
//                  the watches of one wait (a.watch_id) remember whether any frame saw the
//                  new reply, and a "fresh" call with that watch_id counts it (seenFresh);
//   the customer's action: after every reading the host is armed, and the first trusted
//                  pointer, key, input or change event after it records the reply state at
//                  that moment ("acted"). A wait whose prev says at_action compares with that
//                  record, the state at the very moment the customer acted, and says whether
//                  the product was still busy then (acted_while_busy). When it was, the wait
//                  first lets the product finish what it was doing: a reply it changed in
//                  place meanwhile belongs to the screen the customer acted on (its latest
//                  text then is the baseline), but a reply it added meanwhile (more replies
//                  than at the action) is the answer — a product that queues the message
//                  answers it before its busy indicator goes.
//
// A call for selectors this document has not got answers args.missing: the caller installs
// them and calls again. Called as page.evaluate(source, {name, key, fixed}).
(a) => {
  let host = window[a.name];
  if (!host) {
    host = { run: (__SCREEN__), args: {}, generation: 0, armed: null, acted: null };
    const record = (event) => {
      if (!event.isTrusted || !host.armed) return;
      const armed = host.armed;
      host.armed = null;
      try {
        // "stale": marked regions were rendered anew since they were marked, and the state
        // at the action is not known; the caller's baseline (the screen as read) stands.
        const now = host.run(Object.assign({}, armed, { mode: "probe" }));
        host.acted = now && typeof now === "object" ? now : null;
      } catch (err) {
        host.acted = null;
      }
    };
    for (const type of ["pointerdown", "keydown", "input", "change"]) {
      window.addEventListener(type, record, true);
    }
    // The arguments of one call: the installed selectors, the call's own, and prev as it
    // was at the customer's action when the page recorded it.
    host.prepare = (c) => {
      const fixed = host.args[c.key];
      if (!fixed) return null;
      const args = Object.assign({}, fixed, c);
      args.actedWhileBusy = false;
      args.settle = false;
      if (c.prev && c.prev.at_action && host.acted) {
        args.prev = { count: host.acted.count, latest: host.acted.latest };
        args.actedWhileBusy = !host.acted.complete || !!host.acted.settled;
        args.settle = !host.acted.complete;
      }
      return args;
    };
    // A reading arms the recorder for the customer's next action.
    host.done = (args, value) => {
      if (value && typeof value === "object" && value.screen) {
        value.acted_while_busy = args.actedWhileBusy;
        host.armed = Object.assign({}, args, { prev: null });
        host.acted = null;
      }
      return value;
    };
    host.call = (c) => {
      const args = host.prepare(c);
      if (args && c.mode === "fresh") {
        args.seenFresh = !!(host.seen && host.seen.id === c.watch_id && host.seen.fresh);
      }
      return args ? host.done(args, host.run(args)) : c.missing;
    };
    host.watch = (c) => {
      const args = host.prepare(c);
      if (!args) return c.missing;
      const generation = ++host.generation;
      if (!host.seen || host.seen.id !== c.watch_id) host.seen = { id: c.watch_id, fresh: false };
      const deadline = performance.now() + c.timeout_ms;
      let settling = args.settle && args.mode === "wait";
      // While settling: "stale" when marked regions were rendered anew (the caller marks
      // them again at once), else false; once the product is idle, the baseline is set (and
      // kept as the record for a watch that goes on later) and settling ends.
      const settle = () => {
        const now = host.run(Object.assign({}, args, { mode: "probe" }));
        if (typeof now !== "object") return now;
        if (now.complete) {
          settling = false;
          args.settle = false;
          const base = { count: Math.min(args.prev.count, now.count), latest: now.latest };
          args.prev = base;
          host.acted = { count: base.count, latest: base.latest, complete: true,
                         settled: true };
        }
        return false;
      };
      return new Promise((resolve, reject) => {
        const tick = () => {
          if (generation !== host.generation) return resolve(null);
          let value = false;
          try {
            if (settling) value = settle();
            if (!value && !settling) value = host.run(args);
            if (args.sawFresh) host.seen.fresh = true;
          } catch (err) {
            return reject(err);
          }
          if (value) return resolve(host.done(args, value));
          if (performance.now() >= deadline) return resolve(null);
          requestAnimationFrame(tick);
        };
        tick();
      });
    };
    window[a.name] = host;
  }
  host.args[a.key] = a.fixed;
}
