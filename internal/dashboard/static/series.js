// A pick in the table replaces a default (A the oldest point, B the
// newest): its label is greyed, so the form shows what it will diff.
(function () {
  ["a", "b"].forEach(function (name) {
    var def = document.querySelector("label input[name=" + name + "]");
    if (!def) return;
    document.querySelectorAll("input[name=" + name + "]").forEach(function (r) {
      r.addEventListener("change", function () { def.parentNode.classList.toggle("muted", r !== def); });
    });
  });
})();
