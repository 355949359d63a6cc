// Customer workspace: send messages, chips, uploads, confirm and hand-off without a page
// reload. The conversation's data-state is "busy" from the moment an action starts until the
// new reply has been rendered; then it is "idle".
(function () {
  "use strict";
  var root = document.getElementById("workspace");
  if (!root) { return; }

  function conversation() { return root.querySelector("[data-testid=conversation]"); }

  function setBusy(busy) {
    var conv = conversation();
    if (!conv) { return; }
    conv.setAttribute("data-state", busy ? "busy" : "idle");
    conv.setAttribute("aria-busy", busy ? "true" : "false");
    var ind = conv.querySelector("[data-testid=busy-indicator]");
    if (ind) { ind.hidden = !busy; }
    root.querySelectorAll("button, textarea, input").forEach(function (el) { el.disabled = busy; });
  }

  function scrollDown() {
    var conv = conversation();
    if (conv) { conv.scrollTop = conv.scrollHeight; }
  }

  function render(html) {
    root.innerHTML = html;
    scrollDown();
    var box = root.querySelector("[data-testid=composer-input]");
    if (box && !root.querySelector("[data-testid=sign-in-prompt]")) { box.focus(); }
  }

  function showUploadError(message) {
    var slot = root.querySelector(".upload-error-slot");
    if (!slot) { return; }
    slot.innerHTML = "";
    var p = document.createElement("p");
    p.className = "error";
    p.setAttribute("role", "alert");
    p.setAttribute("data-testid", "upload-error");
    p.textContent = message;
    slot.appendChild(p);
  }

  function showProblem(message) {
    var conv = conversation();
    if (!conv) { return; }
    var div = document.createElement("div");
    div.className = "bubble agent error";
    div.setAttribute("role", "alert");
    div.setAttribute("data-testid", "agent-message");
    div.textContent = message;
    conv.insertBefore(div, conv.querySelector("[data-testid=busy-indicator]"));
  }

  function act(url, options) {
    setBusy(true);
    return fetch(url, Object.assign({ credentials: "same-origin" }, options))
      .then(function (resp) {
        var type = resp.headers.get("content-type") || "";
        if (type.indexOf("application/json") === 0) {
          return resp.json().then(function (body) {
            if (body.html) { render(body.html); }
            if (body.error) { showUploadError(body.error); }
            else if (!resp.ok) { showProblem("Something went wrong (HTTP " + resp.status + "). Please try again."); }
          });
        }
        return resp.text().then(function (html) {
          if (resp.ok) { render(html); }
          else { showProblem("Something went wrong (HTTP " + resp.status + "). Please try again."); }
        });
      })
      .catch(function () { showProblem("We could not reach the server. Please try again."); })
      .then(function () { setBusy(false); });
  }

  function appendCustomer(text) {
    var conv = conversation();
    var start = conv.querySelector(".start");
    if (start) { start.remove(); }
    var chips = conv.querySelector("[data-testid=chips]");
    if (chips) { chips.remove(); }
    var div = document.createElement("div");
    div.className = "bubble customer";
    div.setAttribute("data-testid", "customer-message");
    div.textContent = text;
    conv.insertBefore(div, conv.querySelector("[data-testid=busy-indicator]"));
    scrollDown();
  }

  function send(text) {
    text = (text || "").trim();
    if (!text) { return; }
    setBusy(true);
    appendCustomer(text);
    act("/api/messages", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ text: text })
    });
  }

  root.addEventListener("submit", function (ev) {
    var form = ev.target;
    if (!form.matches("[data-testid=composer]")) { return; }
    ev.preventDefault();
    var box = form.querySelector("[data-testid=composer-input]");
    var text = box.value;
    box.value = "";
    send(text);
  });

  root.addEventListener("keydown", function (ev) {
    if (ev.target.matches("[data-testid=composer-input]") && ev.key === "Enter" && !ev.shiftKey) {
      ev.preventDefault();
      ev.target.form.requestSubmit();
    }
  });

  root.addEventListener("click", function (ev) {
    var chip = ev.target.closest("[data-chip]");
    if (chip) { send(chip.getAttribute("data-chip")); return; }
    var action = ev.target.closest("[data-action]");
    if (!action) { return; }
    if (action.getAttribute("data-action") === "confirm") {
      act("/api/confirm", { method: "POST" });
    } else if (action.getAttribute("data-action") === "talk") {
      setBusy(true);
      appendCustomer("I'd like to talk to a person.");
      act("/api/talk-to-person", { method: "POST" });
    }
  });

  root.addEventListener("change", function (ev) {
    var input = ev.target;
    if (!input.matches("[data-testid=attach-input]") || !input.files.length) { return; }
    var data = new FormData();
    data.append("file", input.files[0]);
    var old = root.querySelector("[data-testid=upload-error]");
    if (old) { old.remove(); }
    act("/api/uploads", { method: "POST", body: data });
  });

  if (root.getAttribute("data-signin-error") === "yes") {
    var err = root.querySelector("[data-signin-error]");
    if (err) { err.hidden = false; }
  }
  scrollDown();
})();
