/* Mock interview: the countdown, the print button, and a report's answers (or the set-up
   page's list of interviews) filling in as they are graded. The countdown only displays the
   server's deadline; the server refuses late answers whatever this shows. It re-syncs with
   GET /api/interviews/{id} when the tab becomes visible again (timers sleep in background
   tabs), pauses while an answer is being graded (so does the server's clock) and, when time
   runs out, sends the answer on screen if the candidate has given one (the server takes it
   within its 2 s grace) or else goes to the report, which the server finishes itself. */
(function () {
  "use strict";

  function format(seconds) {
    var s = Math.max(0, Math.ceil(seconds));
    var m = Math.floor(s / 60);
    var rest = s % 60;
    return m + ":" + (rest < 10 ? "0" : "") + rest;
  }

  /* Whether the form differs from what the server rendered: a choice picked, steps moved,
     text or code written (a draft restored after a reload counts; the starter code does not). */
  function answerGiven(form) {
    if (window.tapequizEditor) window.tapequizEditor.save();
    var order = Array.prototype.map.call(form.querySelectorAll("input[name=order]"),
      function (el) { return el.value; }).join(",");
    if (order && order !== form.dataset.initialOrder) return true;
    return Array.prototype.some.call(form.querySelectorAll("input, textarea"), function (el) {
      if (el.type === "radio" || el.type === "checkbox") return el.checked !== el.defaultChecked;
      return el.tagName === "TEXTAREA" && el.value.trim() !== "" && el.value !== el.defaultValue;
    });
  }

  function rememberOrder() {
    var form = document.getElementById("answer-form");
    if (!form) return;
    form.dataset.initialOrder = Array.prototype.map.call(form.querySelectorAll("input[name=order]"),
      function (el) { return el.value; }).join(",");
  }

  function setupCountdown() {
    var bar = document.getElementById("interview-bar");
    var out = document.getElementById("countdown");
    if (!bar || !out) return;
    var announcer = document.getElementById("time-announcer");
    var clock = out.closest(".clock");
    var deadline = performance.now() + parseFloat(bar.dataset.remaining) * 1000;
    var announced = {};

    function announce(left) {
      [300, 60].forEach(function (mark) {
        if (left <= mark && left > mark - 2 && !announced[mark] && announcer) {
          announced[mark] = true;
          announcer.textContent = (mark / 60) + (mark === 60 ? " minute" : " minutes") + " left.";
        }
      });
    }

    function timeUp() {
      clearInterval(timer);
      if (clock) clock.classList.add("out");
      var form = document.getElementById("answer-form");
      var button = document.getElementById("submit-answer");
      if (form && button && answerGiven(form) && form.checkValidity() && form.requestSubmit) {
        if (announcer) announcer.textContent = "Time is up. Sending the answer you gave.";
        form.requestSubmit(button);
        return;
      }
      if (announcer) announcer.textContent = "Time is up.";
      document.querySelectorAll("#answer-form button, #answer-form input, #answer-form textarea")
        .forEach(function (el) { el.disabled = true; });
      setTimeout(function () { location.assign(bar.dataset.report); }, 800);
    }

    function tick() {
      var left = (deadline - performance.now()) / 1000;
      out.textContent = format(left);
      if (clock) clock.classList.toggle("low", left <= 60);
      announce(left);
      if (left <= 0) timeUp();
    }

    function resync() {
      if (document.visibilityState !== "visible" || !window.fetch) return;
      fetch("/api/interviews/" + encodeURIComponent(bar.dataset.interview), {
        credentials: "same-origin", headers: { Accept: "application/json" }
      }).then(function (response) {
        return response.ok ? response.json() : null;
      }).then(function (status) {
        if (!status) return;
        if (status.finished) { location.assign(bar.dataset.report); return; }
        deadline = performance.now() + status.remaining_seconds * 1000;
        tick();
      }).catch(function () { /* keep counting locally */ });
    }

    var timer = setInterval(tick, 250);
    document.addEventListener("visibilitychange", resync);
    // The server stops the clock while it grades an answer, so the page does too.
    var form = document.getElementById("answer-form");
    if (form) {
      form.addEventListener("submit", function () {
        clearInterval(timer);
        if (clock) clock.classList.add("paused");
        if (announcer) announcer.textContent = "Clock paused while your answer is recorded.";
      });
    }
    tick();
  }

  function setupFinishConfirm() {
    var form = document.getElementById("finish-form");
    if (!form) return;
    form.addEventListener("submit", function (event) {
      var ok = window.confirm("Finish the interview now? Questions not yet answered count as misses, " +
        "and you cannot answer any more.");
      if (!ok) event.preventDefault();
    });
  }

  function setupPrint() {
    document.querySelectorAll("[data-print]").forEach(function (button) {
      button.addEventListener("click", function () { window.print(); });
    });
  }

  /* A report with answers still being graded: read the JSON report every few seconds and
     reload the page when one is in (the server's drain grades them; nothing here waits on
     it). A failed read (a restart) is simply tried again. */
  function setupGradingFill() {
    var head = document.querySelector("[data-grading]");
    if (!head) return;
    var left = Number(head.dataset.grading);
    function look() {
      fetch(head.dataset.reportUrl, { headers: { Accept: "application/json" }, cache: "no-store" })
        .then(function (reply) { return reply.ok ? reply.json() : null; })
        .then(function (report) {
          if (report && report.scores.grading < left) window.location.reload();
          else window.setTimeout(look, 3000);
        })
        .catch(function () { window.setTimeout(look, 3000); });
    }
    window.setTimeout(look, 3000);
  }

  /* Set-up: the line under the pack menu gives the chosen pack's question count. */
  function setupPackSummary() {
    var select = document.getElementById("pack");
    var summary = document.getElementById("pack-summary");
    if (!select || !summary) return;
    select.addEventListener("change", function () {
      var count = select.options[select.selectedIndex].dataset.questions;
      summary.textContent = count + " questions in this pack.";
    });
  }

  rememberOrder();
  setupPackSummary();
  setupCountdown();
  setupFinishConfirm();
  setupPrint();
  setupGradingFill();
})();
