// Collects a handler's decisions into the HandlerReview format and offers them as a download.
// A page opened from disk cannot write files: the handler sends the downloaded file back, and
// `claims-harness review import RUN FILE...` reads it. Progress is kept in this browser's
// local storage, per review pack and reviewer, so closing the page loses nothing.
(function () {
  "use strict";
  var main = document.querySelector("main[data-export-id]");
  var exportId = main.getAttribute("data-export-id");
  var nameInput = document.querySelector("[data-testid=handler-name]");

  function decisions() {
    var out = {};
    document.querySelectorAll("fieldset.decision").forEach(function (fs) {
      var id = fs.getAttribute("data-claim");
      var cls = fs.querySelector("input[name='" + id + "__class']:checked");
      var review = fs.querySelector("input[name='" + id + "__review']:checked");
      var reasons = Array.prototype.map.call(
        fs.querySelectorAll("input[name='" + id + "__reason']:checked"),
        function (box) { return box.value; });
      var note = fs.querySelector("textarea[name='" + id + "__note']").value;
      if (!cls && !review && !reasons.length && !note) { return; }
      out[id] = {
        triage_class: cls ? cls.value : null,
        reasons: reasons,
        review_required: review ? review.value === "yes" : null,
        note: note
      };
    });
    return out;
  }

  function storageKey() { return "blind-review:" + exportId + ":" + nameInput.value.trim(); }

  function keep() {
    if (!nameInput.value.trim()) { return; }
    try { localStorage.setItem(storageKey(), JSON.stringify(decisions())); } catch (e) { /* private mode */ }
  }

  function restore() {
    var saved = null;
    try { saved = JSON.parse(localStorage.getItem(storageKey()) || "null"); } catch (e) { saved = null; }
    if (!saved) { return; }
    Object.keys(saved).forEach(function (id) {
      var d = saved[id];
      var pick = function (sel) { var el = document.querySelector(sel); if (el) { el.checked = true; } };
      if (d.triage_class) { pick("input[name='" + id + "__class'][value='" + d.triage_class + "']"); }
      if (d.review_required !== null) { pick("input[name='" + id + "__review'][value='" + (d.review_required ? "yes" : "no") + "']"); }
      (d.reasons || []).forEach(function (r) { pick("input[name='" + id + "__reason'][value='" + r + "']"); });
      var note = document.querySelector("textarea[name='" + id + "__note']");
      if (note) { note.value = d.note || ""; }
    });
  }

  function save() {
    var handler = nameInput.value.trim();
    if (!handler) {
      nameInput.focus();
      document.querySelector("[data-testid=save-status]").textContent = "Enter your name first.";
      return;
    }
    var body = {
      version: "1",
      export_id: exportId,
      handler: handler,
      saved_at: new Date().toISOString(),
      decisions: decisions()
    };
    var blob = new Blob([JSON.stringify(body, null, 2) + "\n"], { type: "application/json" });
    var link = document.createElement("a");
    link.href = URL.createObjectURL(blob);
    link.download = "review-" + exportId + "-" + handler.toLowerCase().replace(/[^a-z0-9]+/g, "-") + ".json";
    document.body.appendChild(link);
    link.click();
    setTimeout(function () { URL.revokeObjectURL(link.href); link.remove(); }, 0);
    document.querySelector("[data-testid=save-status]").textContent =
      Object.keys(body.decisions).length + " decision(s) saved to " + link.download;
  }

  main.addEventListener("change", keep);
  nameInput.addEventListener("change", restore);
  document.querySelector("[data-testid=save-review]").addEventListener("click", save);
})();
