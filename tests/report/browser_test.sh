#!/usr/bin/env bash
# The HTML report in a real browser: Debian's chromium, headless, renders the report of a passing
# scenario, a failing one and a sweep. The test fails on any message on the browser's console
# (the report has no script of its own, so any is a fault of the page), and on any timeline or
# chart the browser did not draw — measured with the browser's own layout (getBBox): an SVG of
# real size with its shapes and a legend — or whose lane labels overflow their column.
# Usage: browser_test.sh KUBESIM SOURCE_DIR. Exits 77 (skipped) when chromium is not installed.
set -u
kubesim=$1
src=$2
browser=$(command -v chromium || true)
if [ -z "$browser" ]; then
  echo "chromium is not installed: skipped (scripts/setup.sh installs it)"
  exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

fail() {
  echo "FAIL: $*" >&2
  exit 1
}

"$kubesim" run "$src/scenarios/library/01-leader-failover-partition.yaml" \
  "$src/tests/tools/testdata/missing-configmap.yaml" "$src/scenarios/experiments/failover-vs-lease.yaml" \
  --seeds 2 --jobs 2 --report "$work/report.html" >"$work/run.out" 2>&1
[ -s "$work/report.html" ] || { cat "$work/run.out" >&2; fail "no report written"; }
grep -q "^FAIL missing-configmap" "$work/run.out" || fail "the failing scenario did not fail"

# The page with a checker appended: it measures what the browser drew and writes its verdict
# into the page, which --dump-dom then prints.
cat >"$work/checker.js" <<'JS'
(function () {
  const problems = [];
  let timelines = 0, charts = 0;
  document.querySelectorAll('svg.timeline, svg.chart').forEach(function (svg, i) {
    const name = svg.getAttribute('class') + ' #' + i;
    const box = svg.getBBox();
    if (box.width < 200 || box.height < 60) problems.push(name + ': drawn ' + box.width + 'x' + box.height);
    const shapes = svg.querySelectorAll('rect, line, path, polyline, circle').length;
    if (shapes < 5) problems.push(name + ': only ' + shapes + ' shapes');
    const legend = svg.querySelector('g.legend');
    if (!legend || legend.querySelectorAll('text').length === 0 || legend.getBBox().width === 0) {
      problems.push(name + ': no legend');
    }
    if (svg.classList.contains('timeline')) {
      timelines++;
      svg.querySelectorAll(':scope > text[x="8"]').forEach(function (label) {
        const width = label.getComputedTextLength();
        const text = label.lastChild.textContent;
        if (width > 200) problems.push(name + ': the lane label "' + text + '" is ' + Math.round(width) + 'px, wider than its column');
        if (text.startsWith('\u2026')) problems.push(name + ': the lane label "' + text + '" is cut at its start');
      });
    } else {
      charts++;
    }
  });
  if (timelines === 0) problems.push('no timeline');
  if (charts === 0) problems.push('no chart');
  const out = document.createElement('pre');
  out.id = 'browser-check';
  out.textContent = problems.length ? 'PROBLEMS\n' + problems.join('\n') : 'DRAWN ' + timelines + ' timelines, ' + charts + ' charts';
  document.body.appendChild(out);
})();
JS
/usr/bin/python3 - "$work/report.html" "$work/checker.js" "$work/check.html" <<'PY'
import sys
page = open(sys.argv[1], encoding="utf-8").read()
checker = open(sys.argv[2], encoding="utf-8").read()
at = page.rfind("</body>")
if at < 0:
    sys.exit("the report has no </body>")
open(sys.argv[3], "w", encoding="utf-8").write(page[:at] + "<script>" + checker + "</script>" + page[at:])
PY
[ -s "$work/check.html" ] || fail "could not prepare the page"

timeout 60 "$browser" --headless --no-sandbox --disable-gpu --user-data-dir="$work/profile" \
  --enable-logging=stderr --v=0 --dump-dom "file://$work/check.html" >"$work/dom.html" 2>"$work/browser.err"
if grep -q ":CONSOLE" "$work/browser.err"; then
  grep ":CONSOLE" "$work/browser.err" >&2
  fail "the browser's console has messages"
fi
verdict=$(/usr/bin/python3 - "$work/dom.html" <<'PY'
import html, re, sys
dom = open(sys.argv[1], encoding="utf-8").read()
m = re.search(r'<pre id="browser-check">(.*?)</pre>', dom, re.S)
print(html.unescape(m.group(1)) if m else "the checker did not run")
PY
)
case "$verdict" in
  DRAWN*) echo "report in chromium: $verdict" ;;
  *) fail "$verdict" ;;
esac
