// The HTML report's script, inlined into the page. It reads nothing from the
// input (the page's data is markup, escaped) and fetches nothing: it only
// toggles the "failing checks only" filter of each scorecard.
export const SCRIPT = `
(function () {
  'use strict';
  var boxes = document.querySelectorAll('input[data-only-failing]');
  for (var i = 0; i < boxes.length; i++) {
    boxes[i].addEventListener('change', function (ev) {
      var box = ev.currentTarget;
      var card = document.getElementById(box.getAttribute('data-only-failing'));
      if (card) card.classList.toggle('only-failing', box.checked);
    });
  }
})();
`;
