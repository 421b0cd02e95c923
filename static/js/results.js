// Results entry on a round's page, better with a script; everything works without it.
// - The results form posts only the boards changed on the page (a board left as loaded sends
//   nothing, its hidden "was_" value neither), so a save stays small whatever the page holds;
//   the server still checks each board sent against what the page showed.
// - Quick entry ("25 1", Enter) is sent in the background: the answer is shown above the box,
//   the box is emptied and keeps the focus, and the board's select on this page shows the
//   stored result (and counts it as loaded, so a later save does not send it again).
(function () {
  "use strict";

  var results = document.querySelector("form.results");
  if (results) {
    results.addEventListener("submit", function () {
      var boards = {};
      Array.prototype.forEach.call(results.querySelectorAll("select[name^='g']"), function (s) {
        var key = s.name.replace(/_2$/, "");  // a match's two games go together
        var was = results.elements["was_" + s.name];
        (boards[key] = boards[key] || []).push([s, was]);
      });
      Object.keys(boards).forEach(function (key) {
        var unchanged = boards[key].every(function (pair) {
          return pair[1] && pair[1].value === pair[0].value;
        });
        if (unchanged) {
          boards[key].forEach(function (pair) { pair[0].disabled = pair[1].disabled = true; });
        }
      });
    });
    // Back to the page from the browser's history: every board can be changed again.
    window.addEventListener("pageshow", function () {
      Array.prototype.forEach.call(results.querySelectorAll("[disabled]"), function (field) {
        field.disabled = false;
      });
    });
  }

  var quick = document.querySelector("form.quick-entry");
  if (!quick || !window.fetch) {
    return;
  }
  var box = quick.elements.entry;
  var log = quick.querySelector(".quick-log");

  function say(message, ok) {
    var line = document.createElement("li");
    line.className = ok ? "success" : "error";
    line.textContent = message;
    log.insertBefore(line, log.firstChild);
    while (log.children.length > 8) {
      log.removeChild(log.lastChild);
    }
  }

  function show(answer) {
    if (!results || !answer.game) {
      return;
    }
    [["g" + answer.game, answer.result], ["g" + answer.game + "_2", answer.second_result]]
      .forEach(function (pair) {
        var select = results.elements[pair[0]];
        var was = results.elements["was_" + pair[0]];
        if (select && was) {
          select.value = was.value = pair[1];
        }
      });
  }

  quick.addEventListener("submit", function (event) {
    event.preventDefault();
    if (!box.value.trim()) {
      return;
    }
    fetch(quick.action, {
      method: "POST",
      body: new FormData(quick),
      headers: {"Accept": "application/json"},
      credentials: "same-origin",
    }).then(function (response) {
      return response.json();
    }).then(function (answer) {
      say(answer.message, answer.ok);
      if (answer.ok) {
        box.value = "";
        show(answer);
      } else {
        box.select();
      }
      box.focus();
    }).catch(function () {
      quick.submit();  // no answer to read: send the form as a page would
    });
  });
})();
