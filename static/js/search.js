// As-you-type search: a GET form marked data-live-search="<tbody id>" refreshes that table body
// from the server's answer while typing. Without JavaScript the form is submitted as usual.
document.querySelectorAll("form[data-live-search]").forEach(function (form) {
  var target = document.getElementById(form.dataset.liveSearch);
  var input = form.querySelector("input[type=search]");
  if (!target || !input) return;
  var timer = null;
  var latest = 0;
  input.addEventListener("input", function () {
    clearTimeout(timer);
    timer = setTimeout(function () {
      var url = form.action.split("#")[0] + "?" + new URLSearchParams(new FormData(form)).toString();
      var ticket = ++latest;
      fetch(url, { headers: { "X-Requested-With": "fetch" } })
        .then(function (response) { return response.text(); })
        .then(function (html) {
          if (ticket !== latest) return;  // an older answer arriving late
          var doc = new DOMParser().parseFromString(html, "text/html");
          var fresh = doc.getElementById(form.dataset.liveSearch);
          if (fresh) target.replaceWith(fresh), (target = fresh);
          history.replaceState(null, "", url);
        });
    }, 200);
  });
});
