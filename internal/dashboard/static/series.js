// Pick the newest point as B, so one click diffs the oldest against it.
(function () {
  var b = document.querySelectorAll("input[name=b]");
  if (b.length) b[b.length - 1].checked = true;
})();
