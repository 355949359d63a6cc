// Kestrel workbench: a queue row opens its case.
(function () {
  "use strict";
  document.querySelectorAll(".queue__row").forEach(function (row) {
    function open() { window.location.assign(row.getAttribute("data-case")); }
    row.addEventListener("click", open);
    row.addEventListener("keydown", function (ev) {
      if (ev.key === "Enter") { open(); }
    });
  });
})();
