// Live pages (issue 16). The element with data-live-url follows its tournament's event stream
// (Server-Sent Events): when a round is published or a result entered, the page fetches itself
// again and swaps that element for the fresh one, without a reload. A hall display
// (data-next-url) also turns to its next screen every data-seconds seconds. Without JavaScript
// the pages are the same, only not live (the display then turns by a meta refresh).
(function () {
  "use strict";
  var root = document.querySelector("[data-live-url]");
  if (!root || !window.EventSource || !window.fetch || !window.DOMParser) {
    return;
  }
  var version = root.getAttribute("data-live-version");
  var url = location.href;
  var loading = false;
  var wanted = null;
  var timer = null;

  function load(target, seen) {
    if (loading) {
      wanted = [target, seen];
      return;
    }
    loading = true;
    // The version we were told of: a server process whose copy is older reads it again.
    var headers = {"X-Live-Version": String(seen || version)};
    fetch(target, {headers: headers, credentials: "same-origin"})
      .then(function (response) {
        if (!response.ok) {
          throw new Error("HTTP " + response.status);
        }
        return response.text();
      })
      .then(function (html) {
        var doc = new DOMParser().parseFromString(html, "text/html");
        var fresh = doc.querySelector("[data-live-url]");
        if (!fresh) {
          return;
        }
        root.replaceWith(fresh);
        root = fresh;
        version = fresh.getAttribute("data-live-version");
        if (target !== url) {
          url = target;
          history.replaceState(null, "", target);
          document.title = doc.title;
        }
        document.dispatchEvent(new CustomEvent("live:updated", {detail: {version: version}}));
      })
      .catch(function () {
        // The next event or screen tries again.
      })
      .then(function () {
        loading = false;
        schedule();
        if (wanted) {
          var next = wanted;
          wanted = null;
          // An event that came during the fetch may be older than what the fetch brought.
          if (next[1] === undefined || Number(next[1]) > Number(version)) {
            load(next[0], next[1]);
          }
        }
      });
  }

  function schedule() {
    clearTimeout(timer);
    var next = root.getAttribute("data-next-url");
    if (next) {
      var seconds = Number(root.getAttribute("data-seconds")) || 15;
      timer = setTimeout(function () {
        load(new URL(next, location.href).href);
      }, seconds * 1000);
    }
  }

  function follow() {
    // The version the page was made from: a change made since is announced at once.
    var source = new EventSource(
      root.getAttribute("data-live-url") + "?v=" + encodeURIComponent(version)
    );
    source.addEventListener("change", function (event) {
      var seen = JSON.parse(event.data).version;
      if (Number(seen) <= Number(version)) {
        // Told late of a version older than the page's (the page was fetched after a change
        // that is still being computed): nothing new to show.
        return;
      }
      // Spread the many visitors' fetches over a few hundred milliseconds.
      setTimeout(function () {
        load(url, seen);
      }, Math.random() * 300);
    });
  }

  // A moment after the page is shown: a visitor clicking through pages opens no stream for
  // each of them, and nothing is missed meanwhile (the stream starts from the page's version).
  setTimeout(follow, 1000);
  schedule();
}());
