// Builds human.json (the HumanVerdicts format) from a trial's form and offers it as a download.
// A page opened from disk cannot write files; the reviewer saves the download beside sheet.json.
(function () {
  "use strict";

  function collect(form) {
    var reviewer = form.querySelector("input[name=reviewer]").value.trim();
    var verdicts = {};
    var date = new Date().toISOString();
    form.querySelectorAll("fieldset[data-assertion]").forEach(function (fs) {
      var id = fs.getAttribute("data-assertion");
      var picked = fs.querySelector("input[type=radio]:checked");
      if (!picked) { return; }
      var note = fs.querySelector("input[name='" + id + "__note']");
      verdicts[id] = { verdict: picked.value, reviewer: reviewer, note: note ? note.value : "", date: date };
    });
    return {
      version: "1",
      run_id: form.getAttribute("data-run-id"),
      pack_id: form.getAttribute("data-pack-id"),
      trial: parseInt(form.getAttribute("data-trial"), 10),
      verdicts: verdicts
    };
  }

  function download(form) {
    if (!form.querySelector("input[name=reviewer]").value.trim()) {
      form.querySelector("input[name=reviewer]").focus();
      alert("Enter the reviewer's name first.");
      return;
    }
    var blob = new Blob([JSON.stringify(collect(form), null, 2) + "\n"], { type: "application/json" });
    var link = document.createElement("a");
    link.href = URL.createObjectURL(blob);
    link.download = "human.json";
    document.body.appendChild(link);
    link.click();
    setTimeout(function () { URL.revokeObjectURL(link.href); link.remove(); }, 0);
  }

  document.querySelectorAll("form[data-testid=human-form]").forEach(function (form) {
    form.querySelector("[data-testid=download-human]").addEventListener("click", function () {
      download(form);
    });
  });
})();
