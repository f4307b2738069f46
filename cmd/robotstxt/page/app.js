// The robots.txt tester page. It sends the file, the agent and the URLs to
// the server's JSON API and renders the answers: every user-supplied string
// goes into the page as text, never as markup. The state (the file or the
// URL fetched, the agent, the URLs) lives in the fragment of the page's URL,
// which browsers never send to a server, so that a result can be shared; a
// large file is compressed there, and one too large for a link is left out.
'use strict';

const maxRobots = 500 * 1024; // bytes of a robots.txt that Google's crawler reads
const plainInLink = 2000; // characters of a file put in the link as they are
const maxInLink = 64 * 1024; // characters of a compressed file put in the link
const commonAgents = ['Googlebot', 'Googlebot-Image', 'Googlebot-News', 'Storebot-Google', 'AdsBot-Google',
  'Bingbot', 'DuckDuckBot', 'Applebot', 'YandexBot', 'Baiduspider', 'GPTBot', 'CCBot', 'ClaudeBot'];
const example = `User-agent: Googlebot
Disallow: /private/
Allow: /private/press/
Disallow: /*.pdf$

User-agent: *
Disallow: /private/
Disallow: /search
Crawl-delay: 5

Sitemap: https://example.com/sitemap.xml
`;
const exampleURLs = `https://example.com/private/report.html
https://example.com/private/press/launch.html
https://example.com/files/brochure.pdf
https://example.com/search?q=robots`;

const $ = (id) => document.getElementById(id);
let mode = 'paste';
let runs = 0; // the last run started; older answers are dropped
let results = [];
let group = null; // which groups decide for the agent (the API's "group")
let selected = 0;
let pending = null; // a file from the link, shown in the text field once its answers are
let findings = []; // the findings of the file, in line order
let current = -1; // the finding navigated to, an index into findings
let shownTab = 'verdicts'; // the results tab shown: verdicts or ai
let lastRobots = null; // the file the lines shown are of, for /api/ai; null when no file was read
let aiRuns = 0; // the last AI matrix asked for; older answers are dropped
let aiCells = []; // the cells of the AI matrix shown, as /api/ai answers them
let aiLine = 0; // the line an AI cell's source highlights

function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === 'class') e.className = v; else e.setAttribute(k, v);
  }
  for (const c of children) e.append(c);
  return e;
}

const plural = (k, w) => `${k} ${w}${k === 1 ? '' : 's'}`;

function setMode(m) {
  mode = m;
  for (const [tab, pane] of [['tab-paste', 'paste-pane'], ['tab-fetch', 'fetch-pane']]) {
    const on = tab === 'tab-' + m;
    $(tab).setAttribute('aria-selected', String(on));
    $(tab).tabIndex = on ? 0 : -1;
    $(pane).hidden = !on;
  }
}

function urlList() {
  return $('urls').value.split(/\r?\n/).map((s) => s.trim()).filter(Boolean);
}

// Bytes of text as base64url, and back.
function toBase64(bytes) {
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64(s) {
  const bin = atob(s.replace(/-/g, '+').replace(/_/g, '/'));
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

async function pipe(bytes, stream) {
  const body = new Blob([bytes]).stream().pipeThrough(stream);
  return new Uint8Array(await new Response(body).arrayBuffer());
}

const compress = async (text) => toBase64(await pipe(new TextEncoder().encode(text), new CompressionStream('deflate-raw')));
const decompress = async (s) => new TextDecoder().decode(await pipe(fromBase64(s), new DecompressionStream('deflate-raw')));

async function readState() {
  const p = new URLSearchParams(location.hash.slice(1));
  if (!p.has('robots') && !p.has('z') && !p.has('fetch')) return false;
  if (p.has('fetch')) {
    setMode('fetch');
    $('fetch-url').value = p.get('fetch');
    $('user-agent').value = p.get('ua') || '';
  } else {
    setMode('paste');
    // A large file takes the browser a while to lay out in the text field:
    // the answers come first.
    pending = p.has('z') ? await decompress(p.get('z')) : p.get('robots');
  }
  $('agent').value = p.has('agent') ? p.get('agent') : 'Googlebot';
  $('urls').value = p.get('urls') || '';
  for (const [key, id] of aiFields) $(id).value = p.get(key) || '';
  if ($('ai-cu').value || $('ai-cs').value || $('ai-xrt').value) $('ai-headers').open = true;
  showTab(p.get('view') === 'ai' ? 'ai' : 'verdicts');
  return true;
}

// writeState puts the state in the page's URL and says whether the file is
// in it.
async function writeState() {
  const p = new URLSearchParams();
  let whole = true;
  if (mode === 'fetch') {
    p.set('fetch', $('fetch-url').value.trim());
    if ($('user-agent').value.trim()) p.set('ua', $('user-agent').value.trim());
  } else {
    const text = robotsText();
    if (text.length <= plainInLink) {
      p.set('robots', text);
    } else {
      const z = await compress(text);
      if (z.length <= maxInLink) p.set('z', z); else whole = false;
    }
  }
  p.set('agent', $('agent').value.trim());
  p.set('urls', urlList().join('\n'));
  if (shownTab === 'ai') p.set('view', 'ai');
  for (const [key, id] of aiFields) if ($(id).value.trim()) p.set(key, $(id).value.trim());
  if (whole) history.replaceState(null, '', '#' + p.toString());
  return whole;
}

async function post(path, body) {
  const resp = await fetch(path, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  let j;
  try {
    j = await resp.json();
  } catch {
    throw new Error(`${path}: HTTP ${resp.status}`);
  }
  if (!resp.ok) throw new Error(j.error || `${path}: HTTP ${resp.status}`);
  return j;
}

function setStatus(text, state) {
  $('status').textContent = text;
  document.body.dataset.state = state;
}

// robotsText returns the file pasted, or the one from the link that is not
// in the text field yet.
function robotsText() {
  return pending !== null ? pending : $('robots').value;
}

function fillPending() {
  if (pending === null) return;
  $('robots').value = pending;
  pending = null;
}

// cutRobots cuts text at 500 KiB of UTF-8, at the last whole character, as
// Google's crawler reads only that much; it returns the text and its size
// in bytes when it was cut, else 0.
function cutRobots(text) {
  const bytes = new TextEncoder().encode(text);
  if (bytes.length <= maxRobots) return [text, 0];
  let end = maxRobots;
  while (end > 0 && (bytes[end] & 0xc0) === 0x80) end--; // not inside a character
  return [new TextDecoder().decode(bytes.subarray(0, end)), bytes.length];
}

async function run() {
  const id = ++runs;
  const start = performance.now();
  document.body.dataset.started = String(id);
  const agent = $('agent').value.trim();
  const urls = urlList();
  setStatus(mode === 'fetch' ? 'Fetching…' : 'Testing…', 'busy');
  try {
    if (!agent) {
      throw new Error('Enter an agent: a crawler\'s product token such as Googlebot, or * for any crawler that no group names.');
    }
    let view;
    const notices = [];
    if (mode === 'fetch') {
      const target = $('fetch-url').value.trim();
      if (!target) throw new Error('Enter the URL of a site or page to fetch its robots.txt.');
      const res = await post('api/fetch', { url: target, agent, user_agent: $('user-agent').value.trim(), urls });
      view = { text: res.text, findings: res.findings, kinds: null, counts: res, check: res.check, fetch: res };
      if (res.body_utf8) $('robots').value = res.body;
      lastRobots = res.rules === 'parsed' ? res.body : null;
    } else {
      const [robots, size] = cutRobots(robotsText());
      if (size) {
        notices.push(`The file is ${size.toLocaleString('en')} bytes: Google's crawler reads only the first ` +
          `${maxRobots.toLocaleString('en')} (500 KiB) and ignores the rest, so it was cut there, as crawlers cut it.`);
      }
      const [check, lint] = await Promise.all([post('api/check', { robots, agent, urls }), post('api/lint', { robots })]);
      view = { text: lint.text, findings: lint.findings, kinds: lint.kinds, counts: lint, check };
      lastRobots = robots;
    }
    if (id !== runs) return;
    const shown = performance.now();
    render(view, notices);
    // The time to show the answers: building them and the frame that
    // lays them out and paints them.
    await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve)));
    document.body.dataset.renderMs = String(Math.round(performance.now() - shown));
    if (id !== runs) return;
    if (shownTab === 'ai') await runAI();
    if (id !== runs) return;
    if (pending !== null) setTimeout(fillPending);
    const whole = await writeState();
    if (id !== runs) return;
    document.body.dataset.ms = String(Math.round(performance.now() - start));
    setStatus(whole ? '' : 'The file is too large for a link: a link to this result holds the agent and URLs only.', 'done');
  } catch (err) {
    if (id !== runs) return;
    fillPending();
    clear();
    showProblems([err.message]);
    setStatus('', 'error');
  }
  document.body.dataset.runs = String(id);
}

// clear removes the answers of an earlier run, so that none is taken for
// the answer to a request that failed.
function clear() {
  results = [];
  group = null;
  renderVerdicts();
  renderFetch(null);
  showNotices([]);
  $('group-summary').textContent = '';
  $('lines').replaceChildren();
  $('file-summary').textContent = '';
  $('findings-bar').hidden = true;
  findings = [];
  current = -1;
  lastRobots = null;
  aiRuns++;
  renderAI(null);
}

function showProblems(messages) {
  const box = $('problems');
  box.replaceChildren(...messages.map((m) => el('p', {}, m)));
  box.hidden = messages.length === 0;
}

function showNotices(messages) {
  const box = $('notices');
  box.replaceChildren(...messages.map((m) => el('p', {}, m)));
  box.hidden = messages.length === 0;
}

function render(view, notices) {
  const { check } = view;
  const problems = [];
  if (check.agent_warning) problems.push(check.agent_warning);
  if (check.rules !== 'parsed') problems.push(check.reason);
  for (const e of check.errors) {
    if (check.unreadable && e.severity === 'error') problems.push(`line ${e.line}: ${e.message}`);
  }
  showProblems(problems);
  if (check.cut) {
    notices.push(`The file is ${check.cut.toLocaleString('en')} bytes: only the first 512,000 (500 KiB) were read, as crawlers read them.`);
  }
  if (check.group.note) notices.push(check.group.note);
  showNotices(notices);
  renderFetch(view.fetch);
  renderAgents(check.agents);
  results = check.results;
  group = check.group;
  $('group-summary').textContent = group.summary;
  renderVerdicts();
  renderLines(view);
  select(Math.min(selected, results.length - 1), false);
}

function renderFetch(res) {
  const table = $('fetch-info');
  table.hidden = !res;
  if (!res) return;
  const rows = [
    ['robots.txt', res.robots_url],
    ['User-Agent', res.user_agent],
    ['status', res.status ? String(res.status) : 'no response'],
  ];
  if (res.error) rows.push(['error', res.error]);
  res.redirects.forEach((r, i) => rows.push([i === 0 ? 'redirects' : '', `${i + 1}: ${r}`]));
  rows.push(['bytes', String(res.bytes) + (res.truncated ? ' (the rest, past 500 KiB, is ignored)' : '')]);
  rows.push(['rules', res.rules + (res.reason ? ': ' + res.reason : '')]);
  rows.push(['cache', duration(res.cache_seconds)]);
  table.tBodies[0].replaceChildren(...rows.map(([k, v]) => el('tr', {}, el('th', { scope: 'row' }, k), el('td', {}, v))));
}

// duration says how long a crawler may keep the rules: "24 h", "5 min".
function duration(secs) {
  if (secs >= 3600 && secs % 3600 === 0) return `${secs / 3600} h`;
  if (secs >= 60 && secs % 60 === 0) return `${secs / 60} min`;
  return `${secs} s`;
}

function renderAgents(fileAgents) {
  const names = [...fileAgents];
  for (const a of commonAgents) {
    if (!names.some((n) => n.toLowerCase() === a.toLowerCase())) names.push(a);
  }
  $('agents').replaceChildren(...names.map((n) => el('option', { value: n })));
}

// groupCell says which group decided a verdict, in a few words.
function groupCell(r) {
  if (r.error || !group) return '';
  const lines = group.agent_lines;
  const on = lines.length ? ` (line${lines.length === 1 ? '' : 's'} ${lines.join(', ')})` : '';
  switch (group.applies) {
    case 'named': return `its own${on}`;
    case 'global': return `* fallback${on}`;
    case 'status': return 'none: no file read';
    default: return 'none applies';
  }
}

function renderVerdicts() {
  const n = results.filter((r) => r.allowed === false).length;
  $('verdict-count').textContent = results.length ? `(${n} of ${results.length} disallowed)` : '';
  const rows = results.map((r, i) => {
    let cls = 'bad';
    let word = 'error';
    if (!r.error) {
      cls = r.allowed ? 'allowed' : 'disallowed';
      word = cls;
    }
    const tr = el('tr', { class: cls, 'data-index': String(i), tabindex: '-1', 'aria-selected': 'false' },
      el('td', { class: 'verdict' }, word), el('td', { class: 'url' }, r.url), el('td', { class: 'why' }, r.error || r.explain),
      el('td', { class: 'group' }, groupCell(r)), el('td', { class: 'usage' }, usageText(r.usage)));
    if (r.line) tr.dataset.line = String(r.line);
    return tr;
  });
  $('verdicts').tBodies[0].replaceChildren(...rows);
}

// usageText shows the preferences that the Content-Usage and Content-Signal
// lines state for a URL, with their lines, as robotstxt check prints them.
function usageText(u) {
  if (!u) return '';
  const parts = [];
  // Each value as the API spells it, y or n, in both vocabularies.
  const list = (m) => Object.entries(m || {}).map(([k, v]) => `${k}=${v.pref} (line ${v.line})`).join(', ');
  const cu = list(u.content_usage);
  if (cu) parts.push('content-usage: ' + cu);
  const cs = list(u.content_signal);
  if (cs) parts.push('content-signal: ' + cs);
  return parts.join('; ');
}

// The file is shown in chunks of lines, each an <ol> built when it comes
// near the visible part of the list (or is needed to show a line), so that
// a file of 30,000 lines costs no more to show than its first screens.
const chunkLines = 250;
let shownText = []; // the lines of the file shown
let lineInfo = null; // what each line shows beside its text; see renderLines
let chunks = []; // one <ol> a chunk; dataset.built is set once it is built
let observer = null;

function renderLines(view) {
  const byLine = new Map();
  view.findings.forEach((f, i) => {
    if (!byLine.has(f.line)) byLine.set(f.line, []);
    byLine.get(f.line).push(i);
  });
  const decides = new Map();
  for (const r of results) {
    if (!r.line) continue;
    const d = decides.get(r.line) || { allow: r.directive === 'allow', count: 0 };
    d.count++;
    decides.set(r.line, d);
  }
  shownText = view.text;
  findings = view.findings;
  current = -1;
  lineInfo = {
    byLine, decides,
    agentLines: new Set(group ? group.agent_lines : []),
    ranges: group ? group.ranges : [],
  };
  if (observer) observer.disconnect();
  observer = new IntersectionObserver((entries) => {
    for (const e of entries) if (e.isIntersecting) buildChunk(e.target);
  }, { root: $('lines'), rootMargin: '800px 0px' });
  chunks = [];
  for (let first = 1; first <= shownText.length; first += chunkLines) {
    const n = Math.min(chunkLines, shownText.length - first + 1);
    let extra = 0;
    for (let k = first; k < first + n; k++) extra += (byLine.get(k) || []).length;
    const ol = el('ol', { class: 'chunk', start: String(first) });
    ol.dataset.first = String(first);
    ol.dataset.count = String(n);
    ol.style.minHeight = `${(n + extra * 1.2) * 1.45 * 0.85}rem`; // until built
    chunks.push(ol);
  }
  $('lines').replaceChildren(...chunks);
  if (chunks.length <= 4) chunks.forEach(buildChunk); else chunks.forEach((ol) => observer.observe(ol));
  const c = view.counts;
  $('file-summary').textContent = `(${plural(view.text.length, 'line')}; ${plural(c.errors, 'error')}, ` +
    `${plural(c.warnings, 'warning')}, ${c.infos} info${c.infos === 1 ? '' : 's'})`;
  renderKinds(view);
}

function buildChunk(ol) {
  if (ol.dataset.built) return;
  ol.dataset.built = '1';
  if (observer) observer.unobserve(ol);
  const first = Number(ol.dataset.first);
  const { byLine, decides, agentLines, ranges } = lineInfo;
  const selLine = shownTab === 'ai' ? aiLine : results[selected] && results[selected].line;
  const frag = document.createDocumentFragment();
  for (let num = first; num < first + Number(ol.dataset.count); num++) {
    const li = document.createElement('li');
    li.id = 'L' + num;
    li.dataset.line = String(num);
    const n = document.createElement('span');
    n.className = 'num';
    n.textContent = String(num);
    const t = document.createElement('span');
    t.className = 'text';
    t.textContent = shownText[num - 1];
    li.append(n, t);
    if (ranges.some(([a, b]) => a <= num && num <= b)) li.classList.add('in-group');
    if (agentLines.has(num)) li.classList.add('agent-line');
    if (num === selLine) li.classList.add('hl');
    const d = decides.get(num);
    if (d) {
      li.classList.add(d.allow ? 'rule-allow' : 'rule-disallow');
      li.append(el('span', { class: 'decides' }, `decides ${plural(d.count, 'URL')}`));
    }
    for (const i of byLine.get(num) || []) {
      const f = findings[i];
      const div = el('div', { class: 'finding ' + f.severity, tabindex: '-1', 'data-cause': f.cause, 'data-index': String(i) },
        el('span', { class: 'sev-label' }, f.severity), ` ${f.message}`);
      if (i === current) div.classList.add('current');
      li.append(div);
    }
    frag.append(li);
  }
  ol.replaceChildren(frag);
  ol.style.minHeight = '';
}

// lineEl returns the element of line num, building its chunk if need be.
function lineEl(num) {
  const ol = chunks[Math.floor((num - 1) / chunkLines)];
  if (!ol) return null;
  buildChunk(ol);
  return $('L' + num);
}

// renderKinds shows the count of each kind of finding, most severe first,
// with the navigation through them.
function renderKinds(view) {
  let kinds = view.kinds;
  if (!kinds) {
    const at = new Map();
    kinds = [];
    for (const f of view.findings) {
      const k = f.severity + '\u0000' + f.cause;
      if (!at.has(k)) {
        at.set(k, kinds.length);
        kinds.push({ severity: f.severity, cause: f.cause, count: 0, first: f.line });
      }
      kinds[at.get(k)].count += f.more ? f.more : 1;
    }
  }
  const rank = { error: 0, warning: 1, info: 2 };
  kinds = [...kinds].sort((a, b) => rank[a.severity] - rank[b.severity] || b.count - a.count);
  $('kinds').replaceChildren(...kinds.map((k) => {
    const b = el('button', { type: 'button', class: 'kind ' + k.severity, 'data-cause': k.cause, 'data-severity': k.severity },
      el('span', { class: 'count' }, String(k.count)), ` ${k.severity}${k.count === 1 ? '' : 's'}: ${k.cause}`);
    return b;
  }));
  $('findings-bar').hidden = kinds.length === 0;
  applyFilters();
}

function applyFilters() {
  const list = $('lines');
  for (const sev of ['error', 'warning', 'info']) list.classList.toggle('hide-' + sev, !$('show-' + sev).checked);
  position();
}

function visible(f) {
  return $('show-' + f.severity).checked;
}

// position says where the navigation is among the findings shown.
function position() {
  let shown = 0;
  let at = -1;
  findings.forEach((f, i) => {
    if (!visible(f)) return;
    if (i === current) at = shown;
    shown++;
  });
  $('finding-pos').textContent = shown === 0 ? 'no findings shown'
    : at < 0 ? `${plural(shown, 'finding')} shown` : `finding ${at + 1} of ${shown}`;
}

// goFinding moves to the next (step 1) or previous (step -1) finding shown,
// or to the first of a kind (cause given), and focuses it.
function goFinding(step, cause) {
  if (findings.length === 0) return;
  let i = current;
  for (let tries = 0; tries < findings.length; tries++) {
    i = cause !== undefined && tries === 0 ? 0 : (i + step + findings.length) % findings.length;
    const f = findings[i];
    if (visible(f) && (cause === undefined || f.cause === cause)) {
      for (const d of $('lines').querySelectorAll('.finding.current')) d.classList.remove('current');
      current = i;
      const d = lineEl(f.line)?.querySelector(`.finding[data-index="${i}"]`);
      if (d) {
        d.classList.add('current');
        d.scrollIntoView({ block: 'nearest' });
        d.focus({ preventScroll: true });
      }
      position();
      return;
    }
  }
}

// select marks verdict i and highlights its deciding line; only a choice
// of the user (scroll set) scrolls the file, so that a new run does not
// move the page.
function select(i, scroll) {
  selected = Math.max(i, 0);
  for (const tr of $('verdicts').tBodies[0].rows) {
    const on = tr.dataset.index === String(selected);
    tr.classList.toggle('selected', on);
    tr.setAttribute('aria-selected', String(on));
    tr.tabIndex = on ? 0 : -1;
  }
  if (shownTab !== 'verdicts') return; // the AI tab's cell keeps its line
  const r = results[selected];
  highlightLine(r ? r.line : 0, scroll);
}

function onVerdictKey(e) {
  const tr = e.target.closest('tr');
  if (!tr) return;
  const rows = $('verdicts').tBodies[0].rows;
  let i = Number(tr.dataset.index);
  switch (e.key) {
    case 'ArrowDown': i = Math.min(i + 1, rows.length - 1); break;
    case 'ArrowUp': i = Math.max(i - 1, 0); break;
    case 'Home': i = 0; break;
    case 'End': i = rows.length - 1; break;
    case 'Enter': case ' ': break;
    default: return;
  }
  e.preventDefault();
  select(i, true);
  rows[i].focus();
}

function onTabKey(e) {
  const order = ['paste', 'fetch'];
  let i = order.indexOf(mode);
  switch (e.key) {
    case 'ArrowRight': i = (i + 1) % order.length; break;
    case 'ArrowLeft': i = (i + order.length - 1) % order.length; break;
    case 'Home': i = 0; break;
    case 'End': i = order.length - 1; break;
    default: return;
  }
  e.preventDefault();
  setMode(order[i]);
  $('tab-' + order[i]).focus();
  if (order[i] === 'paste') later();
}

// The fields of the AI access tab, by their key in the page's link.
const aiFields = [['aiurl', 'ai-url'], ['cu', 'ai-cu'], ['cs', 'ai-cs'], ['xrt', 'ai-xrt']];

// showTab shows the results tab t (verdicts or ai) and highlights the line
// its selection decides.
function showTab(t) {
  shownTab = t;
  for (const [tab, pane] of [['tab-verdicts', 'verdicts-pane'], ['tab-ai', 'ai-pane']]) {
    const on = tab === 'tab-' + t;
    $(tab).setAttribute('aria-selected', String(on));
    $(tab).tabIndex = on ? 0 : -1;
    $(pane).hidden = !on;
  }
  if (t === 'ai') highlightLine(aiLine, false); else select(selected, false);
}

function onResultsTabKey(e) {
  let t;
  switch (e.key) {
    case 'ArrowRight': case 'ArrowLeft': t = shownTab === 'ai' ? 'verdicts' : 'ai'; break;
    case 'Home': t = 'verdicts'; break;
    case 'End': t = 'ai'; break;
    default: return;
  }
  e.preventDefault();
  openTab(t);
  $('tab-' + t).focus();
}

function openTab(t) {
  showTab(t);
  writeState();
  if (t === 'ai') runAI();
}

// highlightLine marks line num of the file (0: none), scrolling to it when
// scroll is set, as selecting a verdict does.
function highlightLine(num, scroll) {
  for (const li of $('lines').querySelectorAll('li.hl')) li.classList.remove('hl');
  if (!num) return;
  const li = scroll ? lineEl(num) : $('L' + num);
  if (li) {
    li.classList.add('hl');
    if (scroll) li.scrollIntoView({ block: 'nearest' });
  }
}

// runAI asks /api/ai for the matrix of the file shown and renders it.
async function runAI() {
  const id = ++aiRuns;
  document.body.dataset.aiStarted = String(id);
  try {
    if (lastRobots === null) {
      throw new Error(mode === 'fetch' && document.body.dataset.state !== 'error'
        ? 'No file was read from the site (see above): the matrix is answered for a robots.txt file.'
        : 'Test a robots.txt first.');
    }
    const url = $('ai-url').value.trim() || urlList()[0] || (mode === 'fetch' && $('fetch-url').value.trim()) || '/';
    const m = await post('api/ai', {
      robots: lastRobots, url,
      content_usage: $('ai-cu').value.trim(), content_signal: $('ai-cs').value.trim(), x_robots_tag: $('ai-xrt').value.trim(),
    });
    if (id !== aiRuns) return;
    renderAI(m);
    showAIProblems([]);
  } catch (err) {
    if (id !== aiRuns) return;
    renderAI(null);
    showAIProblems([err.message]);
  }
  document.body.dataset.aiRuns = String(id);
}

function showAIProblems(messages) {
  const box = $('ai-problems');
  box.replaceChildren(...messages.map((m) => el('p', {}, m)));
  box.hidden = messages.length === 0;
}

// aiSource says where a cell's deciding signal was read: its robots.txt
// line as a button that highlights it, or the header, or nothing.
function aiSource(c) {
  const d = c.decided;
  if (!d) return null;
  if (d.line) {
    return el('button', { type: 'button', class: 'line-link', 'data-line': String(d.line), title: d.text }, `line ${d.line}`);
  }
  return el('span', { class: 'source', title: d.text }, d.kind);
}

// renderAI shows the matrix m (null: none), operators by uses.
function renderAI(m) {
  aiCells = m ? m.cells : [];
  aiLine = 0;
  $('ai-detail').textContent = '';
  const uses = [];
  const ops = [];
  for (const c of aiCells) {
    if (!uses.includes(c.use)) uses.push(c.use);
    if (!ops.includes(c.operator)) ops.push(c.operator);
  }
  $('ai-for').textContent = m ? `for ${m.url}` : '';
  $('ai-matrix').tHead.rows[0].replaceChildren(...(m ? [el('th', { scope: 'col' }, 'operator'),
    ...uses.map((u) => el('th', { scope: 'col' }, u))] : []));
  $('ai-matrix').tBodies[0].replaceChildren(...ops.map((op) => el('tr', {}, el('th', { scope: 'row' }, op),
    ...uses.map((u) => {
      const i = aiCells.findIndex((c) => c.operator === op && c.use === u);
      const c = aiCells[i];
      const td = el('td', { class: 'ai-cell ' + c.verdict.replace(/ /g, '-'), 'data-index': String(i), 'data-operator': op, 'data-use': u },
        el('span', { class: 'ai-verdict' }, c.verdict));
      const src = aiSource(c);
      if (src) td.append(' ', src);
      return td;
    }))));
}

// selectAI shows cell i's signals and highlights its deciding line.
function selectAI(i, scroll) {
  const c = aiCells[i];
  if (!c) return;
  for (const td of $('ai-matrix').querySelectorAll('td.selected')) td.classList.remove('selected');
  $('ai-matrix').querySelector(`td[data-index="${i}"]`)?.classList.add('selected');
  const detail = [`${c.operator} ${c.use}: ${c.verdict}` + (c.token ? ` (governed by ${c.token})` : '')];
  const rows = [el('strong', {}, detail[0])];
  for (const sg of c.signals || []) {
    const decides = c.decided && sg.text === c.decided.text && sg.line === c.decided.line;
    rows.push(el('span', { class: decides ? 'decider' : '' }, (decides ? 'decides: ' : '') + sg.text));
  }
  $('ai-detail').replaceChildren(...rows);
  aiLine = c.decided && c.decided.line ? c.decided.line : 0;
  highlightLine(aiLine, scroll);
}

async function share() {
  const whole = await writeState();
  const note = whole ? '' : ' (without the file, too large for a link)';
  try {
    await navigator.clipboard.writeText(location.href);
    setStatus('Link copied' + note + '.', document.body.dataset.state);
  } catch {
    const input = $('share-link');
    input.value = location.href;
    input.hidden = false;
    input.select();
    setStatus('Copy the link below' + note + '.', document.body.dataset.state);
  }
}

let timer = 0;
function later() {
  clearTimeout(timer);
  timer = setTimeout(run, 400);
}

document.addEventListener('DOMContentLoaded', async () => {
  $('tab-paste').addEventListener('click', () => { setMode('paste'); later(); });
  $('tab-fetch').addEventListener('click', () => setMode('fetch'));
  for (const id of ['tab-paste', 'tab-fetch']) $(id).addEventListener('keydown', onTabKey);
  $('test').addEventListener('click', () => { clearTimeout(timer); run(); });
  $('share').addEventListener('click', share);
  $('robots').addEventListener('input', () => { pending = null; setMode('paste'); later(); });
  for (const id of ['agent', 'urls']) {
    $(id).addEventListener('input', () => { if (mode === 'paste') later(); });
  }
  $('fetch-url').addEventListener('keydown', (e) => { if (e.key === 'Enter') run(); });
  const body = $('verdicts').tBodies[0];
  body.addEventListener('click', (e) => {
    const tr = e.target.closest('tr');
    if (tr) { select(Number(tr.dataset.index), true); tr.focus(); }
  });
  body.addEventListener('keydown', onVerdictKey);
  $('tab-verdicts').addEventListener('click', () => openTab('verdicts'));
  $('tab-ai').addEventListener('click', () => openTab('ai'));
  for (const id of ['tab-verdicts', 'tab-ai']) $(id).addEventListener('keydown', onResultsTabKey);
  let aiTimer = 0;
  for (const [, id] of aiFields) {
    $(id).addEventListener('input', () => {
      clearTimeout(aiTimer);
      if (shownTab === 'ai') aiTimer = setTimeout(() => { runAI(); writeState(); }, 400);
    });
  }
  const matrix = $('ai-matrix').tBodies[0];
  matrix.addEventListener('click', (e) => {
    const td = e.target.closest('td.ai-cell');
    if (td) selectAI(Number(td.dataset.index), true);
  });
  // Hovering a line number shows its line without scrolling the file.
  matrix.addEventListener('mouseover', (e) => {
    const b = e.target.closest('button.line-link');
    if (b) highlightLine(Number(b.dataset.line), false);
  });
  matrix.addEventListener('mouseout', (e) => {
    if (e.target.closest('button.line-link')) highlightLine(aiLine, false);
  });
  $('next-finding').addEventListener('click', () => goFinding(1));
  $('prev-finding').addEventListener('click', () => goFinding(-1));
  $('kinds').addEventListener('click', (e) => {
    const b = e.target.closest('button');
    if (!b) return;
    $('show-' + b.dataset.severity).checked = true;
    applyFilters();
    goFinding(1, b.dataset.cause);
  });
  for (const sev of ['error', 'warning', 'info']) $('show-' + sev).addEventListener('change', applyFilters);
  document.addEventListener('keydown', (e) => {
    if (e.key === 'F8') { e.preventDefault(); goFinding(e.shiftKey ? -1 : 1); }
  });
  window.addEventListener('hashchange', async () => { if (await readState()) run(); });
  let restored = false;
  try {
    restored = await readState();
  } catch {
    showProblems(['The link holds a file that cannot be read back: it was cut or changed.']);
  }
  if (!restored) {
    $('robots').value = example;
    $('urls').value = exampleURLs;
  }
  run();
});
