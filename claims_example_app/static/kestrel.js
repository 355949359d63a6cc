// Kestrel Claims customer chat. The page arrives empty; this script fetches the conversation
// and renders every turn. While the assistant works, a "Working on it…" bubble (same classes
// as a reply, plus bubble--pending and aria-busy) is shown and the composer is disabled.
// A two-part reply shows its first part at once and the rest chunkGapMs later. Files are
// staged by the file input and only sent with Send.
(function () {
  "use strict";
  var thread = document.querySelector(".thread");
  var quick = document.querySelector(".quick-replies");
  var nextStep = document.querySelector(".next-step");
  var card = document.querySelector(".review-card");
  var cardRows = card.querySelector(".review-card__rows");
  var cardActions = card.querySelector(".review-card__actions");
  var refBox = document.querySelector(".claim-ref");
  var refValue = refBox.querySelector(".claim-ref__value");
  var form = document.querySelector(".composer");
  var box = form.querySelector(".composer__text");
  var send = form.querySelector(".composer__send");
  var fileInput = form.querySelector(".composer__file");
  var staged = form.querySelector(".composer__staged");
  var alertBox = form.querySelector(".composer__error");

  var busy = false;
  var shown = 0;          // server turns already on screen
  var stagedFile = null;
  var placeholder = null;
  var BUSY_WORDS = "Working on it\u2026";
  var PROBLEM = "Sorry, something went wrong on our side. Please try again in a moment.";

  function bubble(who, text, extra) {
    var li = document.createElement("li");
    li.className = "bubble bubble--" + who + (extra ? " " + extra : "");
    var p = document.createElement("p");
    p.className = "bubble__text";
    p.textContent = text;
    li.appendChild(p);
    return li;
  }

  function customerBubble(text, fileName) {
    var li = bubble("me", text || "", fileName ? "bubble--file" : "");
    if (fileName) {
      var f = document.createElement("span");
      f.className = "bubble__file";
      f.textContent = "\uD83D\uDCCE " + fileName;
      li.insertBefore(f, li.firstChild);
      if (!text) { li.removeChild(li.querySelector(".bubble__text")); }
    }
    return li;
  }

  function scrollDown() { thread.scrollTop = thread.scrollHeight; }

  function controls() {
    return document.querySelectorAll(".quick-replies button, .next-step button, .review-card button");
  }

  function setBusy(on) {
    busy = on;
    box.disabled = on;
    send.disabled = on;
    controls().forEach(function (b) { b.disabled = on; });
    if (on && !placeholder) {
      placeholder = bubble("bot", BUSY_WORDS, "bubble--pending");
      placeholder.setAttribute("aria-busy", "true");
      thread.appendChild(placeholder);
      scrollDown();
    }
  }

  function showError(message) {
    alertBox.textContent = message;
    alertBox.hidden = false;
  }

  function clearError() {
    alertBox.textContent = "";
    alertBox.hidden = true;
  }

  function renderStaged() {
    staged.innerHTML = "";
    if (!stagedFile) { return; }
    var chip = document.createElement("span");
    chip.className = "attachment-chip";
    var name = document.createElement("span");
    name.className = "attachment-chip__name";
    name.textContent = stagedFile.name;
    var remove = document.createElement("button");
    remove.type = "button";
    remove.className = "attachment-chip__remove";
    remove.setAttribute("aria-label", "Remove " + stagedFile.name);
    remove.textContent = "\u00D7";
    remove.addEventListener("click", function () { stagedFile = null; renderStaged(); });
    chip.appendChild(name);
    chip.appendChild(remove);
    staged.appendChild(chip);
  }

  function button(label, className, onClick) {
    var b = document.createElement("button");
    b.type = "button";
    b.className = className;
    b.textContent = label;
    b.addEventListener("click", onClick);
    return b;
  }

  function renderOffer(state) {
    quick.innerHTML = "";
    nextStep.innerHTML = "";
    state.quick.forEach(function (label) {
      quick.appendChild(button(label, "quick-reply", function () { sendTurn(label, null); }));
    });
    cardActions.innerHTML = "";
    state.actions.forEach(function (a) {
      if (a.id === "review") {
        nextStep.appendChild(button(a.label, "next-step__review", function () { step("/api/review"); }));
      } else if (a.id === "create") {
        cardActions.appendChild(button(a.label, "review-card__create", function () { step("/api/create"); }));
      } else if (a.id === "edit") {
        cardActions.appendChild(button(a.label, "review-card__edit", function () { step("/api/edit"); }));
      }
    });
    cardRows.innerHTML = "";
    card.hidden = !state.review;
    if (state.review) {
      state.review.rows.forEach(function (row) {
        var div = document.createElement("div");
        div.className = "review-card__row";
        var dt = document.createElement("dt");
        dt.textContent = row.label;
        var dd = document.createElement("dd");
        dd.textContent = row.value;
        div.appendChild(dt);
        div.appendChild(dd);
        cardRows.appendChild(div);
      });
    }
    controls().forEach(function (b) { b.disabled = busy; });
  }

  function renderRef(state) {
    if (state.claimRef) {
      refValue.textContent = state.claimRef;
      refBox.hidden = false;
    }
  }

  // Put the state's new turns on screen; the newest bot turn is revealed part by part.
  function render(state, animate) {
    var fresh = state.turns.slice(shown);
    shown = state.turns.length;
    var last = null;
    fresh.forEach(function (t, i) {
      if (t.who === "customer") {
        if (!animate) { thread.appendChild(customerBubble(t.text, t.file)); }
        return;
      }
      if (animate && i === fresh.length - 1) { last = t; return; }
      thread.appendChild(bubble("bot", t.text));
    });
    renderRef(state);
    if (!last) {
      if (placeholder) { placeholder.remove(); placeholder = null; }
      setBusy(false);
      renderOffer(state);
      scrollDown();
      return;
    }
    var parts = last.parts && last.parts.length ? last.parts : [last.text];
    var reply = bubble("bot", parts[0]);
    if (placeholder) { placeholder.replaceWith(reply); placeholder = null; }
    else { thread.appendChild(reply); }
    setBusy(false);
    scrollDown();
    if (parts.length < 2) { renderOffer(state); return; }
    window.setTimeout(function () {
      reply.querySelector(".bubble__text").textContent = parts.join(" ");
      renderOffer(state);
      scrollDown();
    }, state.chunkGapMs);
  }

  function problem(message) {
    if (placeholder) { placeholder.remove(); placeholder = null; }
    var li = bubble("bot", message || PROBLEM, "bubble--problem");
    li.setAttribute("role", "alert");
    thread.appendChild(li);
    setBusy(false);
  }

  // Send a request; 2xx renders the new state, 4xx with {"error"} is shown in the alert.
  function call(url, options, onRefused) {
    setBusy(true);
    quick.innerHTML = "";
    nextStep.innerHTML = "";
    return fetch(url, Object.assign({ credentials: "same-origin" }, options))
      .then(function (resp) {
        return resp.json().catch(function () { return null; }).then(function (body) {
          if (resp.ok && body && body.turns) { render(body, true); return; }
          if (resp.status < 500 && body && body.error) {
            if (placeholder) { placeholder.remove(); placeholder = null; }
            setBusy(false);
            if (onRefused) { onRefused(); }
            showError(body.error);
            return;
          }
          problem();
        });
      })
      .catch(function () { problem(); });
  }

  function sendTurn(text, file) {
    clearError();
    var local = customerBubble(text, file ? file.name : null);
    thread.appendChild(local);
    var data = new FormData();
    data.append("text", text || "");
    if (file) { data.append("file", file, file.name); }
    return call("/api/turns", { method: "POST", body: data }, function () { local.remove(); });
  }

  function step(url) {
    clearError();
    call(url, { method: "POST" });
  }

  form.addEventListener("submit", function (ev) {
    ev.preventDefault();
    if (busy) { return; }
    var text = box.value.trim();
    var file = stagedFile;
    if (!text && !file) { return; }
    box.value = "";
    stagedFile = null;
    renderStaged();
    sendTurn(text, file);
  });

  box.addEventListener("keydown", function (ev) {
    if (ev.key === "Enter" && !ev.shiftKey) {
      ev.preventDefault();
      form.requestSubmit();
    }
  });

  fileInput.addEventListener("change", function () {
    var file = fileInput.files && fileInput.files[0];
    fileInput.value = "";
    if (!file) { return; }
    if (busy) {
      showError("Please wait for my reply, then add " + file.name + " again.");
      return;
    }
    clearError();
    stagedFile = file;
    renderStaged();
  });

  setBusy(true);
  fetch("/api/thread", { credentials: "same-origin" })
    .then(function (resp) { return resp.json(); })
    .then(function (state) { render(state, state.turns.length === 1); })
    .catch(function () { problem(); });
})();
