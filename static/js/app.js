/* tapequiz page enhancements: code editor, keyboard shortcuts, ordering, hints in place,
   a progress indicator while grading. Every page works without this file. */
(function () {
  "use strict";

  function markCurrentNav() {
    document.querySelectorAll(".nav-links a").forEach(function (a) {
      var path = a.getAttribute("href");
      if (location.pathname === path || location.pathname.indexOf(path + "/") === 0) {
        a.setAttribute("aria-current", "page");
      }
    });
  }

  function setupEditor(form) {
    var area = form.querySelector("textarea[data-editor]");
    if (!area || typeof window.CodeMirror === "undefined") return null;
    var editor = window.CodeMirror.fromTextArea(area, {
      mode: "python", lineNumbers: true, indentUnit: 4, tabSize: 4, indentWithTabs: false,
      matchBrackets: true, autoCloseBrackets: true, viewportMargin: Infinity,
      extraKeys: {
        Tab: function (cm) {
          if (cm.somethingSelected()) cm.indentSelection("add");
          else cm.replaceSelection("    ", "end");
        },
        "Shift-Tab": function (cm) { cm.indentSelection("subtract"); },
        "Ctrl-Enter": function () { submit(form); },
        "Cmd-Enter": function () { submit(form); },
        Esc: function (cm) { cm.getInputField().blur(); }
      }
    });
    editor.getInputField().setAttribute("aria-label", "Code editor (Python)");
    editor.on("change", function () { editor.save(); });
    window.tapequizEditor = editor;
    return editor;
  }

  function submit(form) {
    if (form.dataset.busy) return;
    if (typeof form.requestSubmit === "function") form.requestSubmit();
    else form.submit();
  }

  function newTicket(form) {
    var field = form.querySelector("input[name=grade_ticket]");
    if (!field) return "";
    var bytes = new Uint8Array(12);
    (window.crypto || window.msCrypto).getRandomValues(bytes);
    field.value = Array.prototype.map.call(bytes, function (b) {
      return ("0" + b.toString(16)).slice(-2);
    }).join("");
    return field.value;
  }

  /* While code is graded: this submission's place in the grader's real queue. */
  function pollQueue(ticket) {
    var out = document.getElementById("queue-status");
    if (!out || !ticket || !window.fetch) return;
    var url = out.dataset.queueUrl + "?ticket=" + encodeURIComponent(ticket);
    function tick() {
      fetch(url, { credentials: "same-origin" }).then(function (r) { return r.json(); })
        .then(function (s) {
          if (!s.known) { setTimeout(tick, 700); return; }
          out.textContent = (s.ahead ? s.ahead + " submission" + (s.ahead > 1 ? "s" : "") +
            " sent before yours still being checked" : "Yours is first in line") +
            " · about " + s.estimate_seconds + " s in all (" + s.in_progress +
            " being checked, " + s.workers + " warm worker" + (s.workers > 1 ? "s" : "") + ")";
          out.dataset.known = "1";
          setTimeout(tick, 1000);
        }).catch(function () { setTimeout(tick, 2000); });
    }
    tick();
  }

  function showGrading(form) {
    var box = document.getElementById("grading");
    var button = form.querySelector("[type=submit]");
    form.dataset.busy = "1";
    if (button) { button.disabled = true; button.textContent = "Grading…"; }
    if (!box) return;
    box.classList.add("active");
    var started = Date.now();
    var out = box.querySelector("[data-elapsed]");
    setInterval(function () {
      if (out) out.textContent = "(" + Math.round((Date.now() - started) / 1000) + " s)";
    }, 500);
  }

  function setupAnswerForm() {
    var form = document.getElementById("answer-form");
    if (!form) return;
    var editor = setupEditor(form);
    form.addEventListener("submit", function (event) {
      if (form.dataset.busy) { event.preventDefault(); return; }
      if (editor) editor.save();
      var ticket = newTicket(form);
      showGrading(form);
      pollQueue(ticket);
    });
    setupDraft(form, editor);
    setupRun(form, editor);
    document.addEventListener("keydown", function (event) {
      if ((event.ctrlKey || event.metaKey) && event.key === "Enter") {
        event.preventDefault();
        submit(form);
        return;
      }
      var typing = /^(TEXTAREA|INPUT|SELECT)$/.test(event.target.tagName) &&
        !/^(radio|checkbox)$/.test(event.target.type || "");
      if (typing || event.ctrlKey || event.metaKey || event.altKey) return;
      if (event.target.closest && event.target.closest(".CodeMirror")) return;
      var n = parseInt(event.key, 10);
      var inputs = form.querySelectorAll("[data-choices] input");
      if (n >= 1 && n <= inputs.length) {
        var input = inputs[n - 1];
        if (input.type === "radio") input.checked = true; else input.checked = !input.checked;
        input.focus();
        event.preventDefault();
      }
    });
    setupOrdering(form);
    setupCounter(form);
    setupRetry(form);
  }

  /* The editor keeps the learner's code per question and identity across reloads; an
     interview page keeps its explanation too (a reload must not cost a candidate the answer).
     An interview draft is stored with the time after which its interview has surely ended
     (`data-draft-seconds` from now), so it can be dropped then (see sweepInterviewDrafts). */
  function setupDraft(form, editor) {
    var key = form.dataset.draftKey;
    var text = editor ? null : form.querySelector("textarea[name=answer]");
    if (!key || !(editor || text) || !window.localStorage) return;
    var alert = document.getElementById("answer-error");
    var current = function () { return editor ? editor.getValue() : text.value; };
    var keepFor = parseFloat(form.dataset.draftSeconds || "");
    var saved = null;
    try { saved = localStorage.getItem(key); } catch (e) { return; }
    if (saved !== null && !isNaN(keepFor)) saved = draftText(saved);
    if (saved !== null && !alert && saved !== current()) {
      if (editor) editor.setValue(saved); else text.value = saved;
    }
    var keep = function () {
      var value = isNaN(keepFor) ? current()
        : JSON.stringify({ text: current(), until: Date.now() + keepFor * 1000 });
      try { localStorage.setItem(key, value); } catch (e) { /* quota: keep going */ }
    };
    if (editor) editor.on("change", keep); else text.addEventListener("input", keep);
  }

  function parsedDraft(value) {
    try {
      var found = JSON.parse(value);
      return found && typeof found === "object" && typeof found.text === "string" ? found : null;
    } catch (e) { return null; }
  }

  function draftText(value) {
    var found = parsedDraft(value);
    return found ? found.text : value;  // a draft saved before drafts had an end time
  }

  /* Interview drafts must not outlive their interview (a shared lab computer): an interview's
     pages name its draft prefix (`data-interview-drafts`); its report drops them all, a
     question page drops those of the questions already answered or skipped, and any page
     drops every draft whose interview has surely ended (or that has no end time). */
  function sweepInterviewDrafts() {
    if (!window.localStorage) return;
    var owner = document.querySelector("[data-interview-drafts]");
    var prefix = owner ? owner.dataset.interviewDrafts : null;
    var form = document.getElementById("answer-form");
    var current = form ? form.dataset.draftKey : null;
    var now = Date.now();
    try {
      for (var i = localStorage.length - 1; i >= 0; i--) {
        var key = localStorage.key(i);
        if (!key || key.indexOf("tapequiz:interview-draft:") !== 0 || key === current) continue;
        var found = parsedDraft(localStorage.getItem(key));
        var ended = !found || !(found.until > now);
        if (ended || (prefix && key.indexOf(prefix) === 0)) localStorage.removeItem(key);
      }
    } catch (e) { /* storage blocked: nothing kept either */ }
  }

  function removeDrafts(keep) {
    if (!window.localStorage) return;
    try {
      for (var i = localStorage.length - 1; i >= 0; i--) {
        var key = localStorage.key(i);
        var draft = key && (key.indexOf("tapequiz:draft:") === 0 ||
          key.indexOf("tapequiz:interview-draft:") === 0);
        if (draft && !keep(key)) localStorage.removeItem(key);
      }
    } catch (e) { /* storage blocked: nothing kept either */ }
  }

  /* Practice drafts belong to one identity (`tapequiz:draft:<user id>:<question>`): a shared
     browser must not keep the previous learner's code. Logging out here drops every draft;
     any page drops the practice drafts of other identities (a log-out elsewhere, an expired
     cookie), which their owner could not open here anyway. */
  function sweepOtherIdentitiesDrafts() {
    var who = document.body.dataset.identity;
    if (who === undefined) return;  // a page that does not know who is asking
    var mine = "tapequiz:draft:" + who + ":";
    removeDrafts(function (key) {
      return key.indexOf("tapequiz:draft:") !== 0 || key.indexOf(mine) === 0;
    });
  }

  function dropDraftsOnLogout() {
    document.querySelectorAll('form[action="/logout"]').forEach(function (form) {
      form.addEventListener("submit", function () {
        removeDrafts(function () { return false; });
      });
    });
  }

  function addObservation(list, kind, text) {
    var li = document.createElement("li");
    li.className = kind;
    li.textContent = text;
    list.appendChild(li);
  }

  /* Run: the sandbox tries the step once on a public scenario; nothing is recorded. */
  function setupRun(form, editor) {
    var button = document.getElementById("run-code");
    var panel = document.getElementById("trial");
    if (!button || !panel || !window.fetch) return;
    button.hidden = false;  // Run needs this script; without it the page offers Submit only
    button.addEventListener("click", function () {
      if (editor) editor.save();
      newTicket(form);
      var list = document.getElementById("trial-observations");
      var output = document.getElementById("trial-output");
      button.disabled = true; button.textContent = "Running…";
      panel.hidden = false; list.innerHTML = ""; output.hidden = true;
      panel.dataset.state = "running";
      fetch(form.dataset.runUrl, { method: "POST", body: new FormData(form), credentials: "same-origin",
                                   headers: { Accept: "application/json" } })
        .then(function (r) { return r.json().then(function (body) { return { ok: r.ok, body: body }; }); })
        .then(function (reply) {
          var body = reply.body;
          if (!reply.ok) { addObservation(list, "error", body.message || "Run failed."); return; }
          document.getElementById("trial-scenario").textContent =
            "Ran once on a public example (" + body.scenario + "); the graded checks use other weights.";
          body.observations.forEach(function (o) { addObservation(list, o.kind, o.text); });
          if (body.output) { output.textContent = body.output; output.hidden = false; }
        })
        .catch(function () { addObservation(list, "error", "Run failed: the server did not answer."); })
        .then(function () {
          button.disabled = false; button.textContent = "Run";
          panel.dataset.state = "done";
        });
    });
  }

  function setupOrdering(form) {
    var list = form.querySelector("[data-ordering]");
    if (!list) return;
    function move(item, step) {
      var target = step < 0 ? item.previousElementSibling : item.nextElementSibling;
      if (!target) return;
      if (step < 0) list.insertBefore(item, target); else list.insertBefore(target, item);
      item.classList.remove("moved"); void item.offsetWidth; item.classList.add("moved");
    }
    list.addEventListener("click", function (event) {
      var button = event.target.closest("button[data-move]");
      if (!button) return;
      var item = button.closest(".order-item");
      move(item, parseInt(button.dataset.move, 10));
      button.focus();
    });
    list.addEventListener("keydown", function (event) {
      var item = event.target.closest(".order-item");
      if (!item || !event.altKey || (event.key !== "ArrowUp" && event.key !== "ArrowDown")) return;
      event.preventDefault();
      move(item, event.key === "ArrowUp" ? -1 : 1);
      item.focus();
    });
  }

  function setupCounter(form) {
    var area = form.querySelector("textarea[data-counter]");
    var out = form.querySelector("[data-count]");
    if (!area || !out) return;
    var limit = parseInt(out.dataset.limit || "0", 10);
    // Characters as the server counts them (code points: an emoji is one, not two).
    function update() {
      var n = Array.from(area.value).length;
      out.textContent = n.toLocaleString("en") + (limit ? " of " + limit.toLocaleString("en") : "") + " characters";
    }
    area.addEventListener("input", update);
    update();
  }

  function setupRetry(form) {
    var alert = document.getElementById("answer-error");
    var wait = alert && parseInt(alert.dataset.retryAfter || "0", 10);
    if (!wait) return;
    var button = form.querySelector("[type=submit]");
    var out = alert.querySelector("[data-countdown]");
    if (button) button.disabled = true;
    var timer = setInterval(function () {
      wait -= 1;
      if (out) out.textContent = Math.max(wait, 0);
      if (wait <= 0) { clearInterval(timer); if (button) button.disabled = false; }
    }, 1000);
  }

  function setupHints() {
    var form = document.getElementById("hint-form");
    var list = document.getElementById("hint-list");
    if (!form || !list || !window.fetch) return;
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      fetch(form.action, {
        method: "POST", body: new FormData(form), headers: { Accept: "application/json" },
        credentials: "same-origin"
      }).then(function (response) {
        if (!response.ok) throw new Error("hint failed");
        return response.json();
      }).then(function (hint) {
        var box = document.createElement("div");
        box.className = "hint";
        var label = document.createElement("strong");
        label.textContent = "Hint " + (hint.index + 1) + ". ";
        box.appendChild(label);
        // The page renders hints as Markdown (`code`); the server sends that HTML, escaped.
        if (hint.html) box.insertAdjacentHTML("beforeend", hint.html);
        else box.appendChild(document.createTextNode(hint.text));
        list.appendChild(box);
        var counter = form.querySelector(".muted");
        if (counter) counter.textContent = "(" + (hint.index + 1) + "/" + hint.count + ")";
        if (hint.index + 1 >= hint.count) form.remove();
      }).catch(function () { form.submit(); });
    });
  }

  function setupNext() {
    var next = document.getElementById("next");
    if (!next) return;
    document.addEventListener("keydown", function (event) {
      var busy = /^(TEXTAREA|INPUT|SELECT|BUTTON|A|SUMMARY)$/.test(event.target.tagName);
      if (event.key === "Enter" && !busy && !event.ctrlKey && !event.metaKey) next.click();
    });
  }

  /* Times as "3 min ago" / "in 2 days"; the absolute UTC time stays in the tooltip. */
  function relativeTimes() {
    var nodes = document.querySelectorAll("time[data-relative]");
    if (!nodes.length || typeof Intl === "undefined" || !Intl.RelativeTimeFormat) return;
    var format = new Intl.RelativeTimeFormat(undefined, { numeric: "auto" });
    var steps = [["year", 31536000], ["month", 2592000], ["week", 604800], ["day", 86400],
                 ["hour", 3600], ["minute", 60], ["second", 1]];
    nodes.forEach(function (node) {
      var text = node.getAttribute("datetime");
      if (!/(Z|[+-]\d\d:\d\d)$/.test(text)) text += "Z";  // stored times are UTC
      var when = new Date(text);
      if (isNaN(when)) return;
      var seconds = (when - Date.now()) / 1000;
      for (var i = 0; i < steps.length; i++) {
        if (Math.abs(seconds) >= steps[i][1] || steps[i][0] === "second") {
          if (!node.title) node.title = node.textContent.trim();
          node.textContent = format.format(Math.round(seconds / steps[i][1]), steps[i][0]);
          return;
        }
      }
    });
  }

  /* A form that undoes something for others (withdrawing a pack version) asks first. */
  function setupConfirms() {
    document.querySelectorAll("form[data-confirm]").forEach(function (form) {
      form.addEventListener("submit", function (event) {
        if (!window.confirm(form.dataset.confirm)) event.preventDefault();
      });
    });
  }

  markCurrentNav();
  sweepInterviewDrafts();
  sweepOtherIdentitiesDrafts();
  dropDraftsOnLogout();
  setupConfirms();
  relativeTimes();
  setupNext();
  setupAnswerForm();
  setupHints();
})();
