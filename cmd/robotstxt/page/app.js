// The robots.txt tester page. It sends the file, the agent and the URLs to
// the server's JSON API and renders the answers: every user-supplied string
// goes into the page as text, never as markup. The state (the file or the
// URL fetched, the agent, the URLs) lives in the fragment of the page's URL,
// which browsers never send to a server, so that a result can be shared.
'use strict';

const maxBody = 500 * 1024; // the server refuses larger requests
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
let selected = 0;

function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === 'class') e.className = v; else e.setAttribute(k, v);
  }
  for (const c of children) e.append(c);
  return e;
}

function setMode(m) {
  mode = m;
  for (const [tab, pane] of [['tab-paste', 'paste-pane'], ['tab-fetch', 'fetch-pane']]) {
    const on = tab === 'tab-' + m;
    $(tab).setAttribute('aria-selected', String(on));
    $(pane).hidden = !on;
  }
}

function urlList() {
  return $('urls').value.split(/\r?\n/).map((s) => s.trim()).filter(Boolean);
}

function readState() {
  const p = new URLSearchParams(location.hash.slice(1));
  if (!p.has('robots') && !p.has('fetch')) return false;
  if (p.has('fetch')) {
    setMode('fetch');
    $('fetch-url').value = p.get('fetch');
    $('user-agent').value = p.get('ua') || '';
  } else {
    setMode('paste');
    $('robots').value = p.get('robots');
  }
  $('agent').value = p.get('agent') || '*';
  $('urls').value = p.get('urls') || '';
  return true;
}

function writeState() {
  const p = new URLSearchParams();
  if (mode === 'fetch') {
    p.set('fetch', $('fetch-url').value.trim());
    if ($('user-agent').value.trim()) p.set('ua', $('user-agent').value.trim());
  } else {
    p.set('robots', $('robots').value);
  }
  p.set('agent', $('agent').value.trim() || '*');
  p.set('urls', urlList().join('\n'));
  history.replaceState(null, '', '#' + p.toString());
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

async function run() {
  const id = ++runs;
  document.body.dataset.started = String(id);
  const agent = $('agent').value.trim() || '*';
  const urls = urlList();
  setStatus(mode === 'fetch' ? 'Fetching…' : 'Testing…', 'busy');
  try {
    let view;
    if (mode === 'fetch') {
      const target = $('fetch-url').value.trim();
      if (!target) throw new Error('Enter the URL of a site or page to fetch its robots.txt.');
      const res = await post('api/fetch', { url: target, agent, user_agent: $('user-agent').value.trim(), urls });
      view = { text: res.text, findings: res.findings, counts: res, check: res.check, fetch: res };
      if (res.body_utf8) $('robots').value = res.body;
    } else {
      const robots = $('robots').value;
      if (new Blob([robots]).size > maxBody) {
        throw new Error('The file is over 500 KiB: crawlers read only the first 500 KiB. Test a shorter file, or run robotstxt lint on it.');
      }
      const [check, lint] = await Promise.all([post('api/check', { robots, agent, urls }), post('api/lint', { robots })]);
      view = { text: lint.text, findings: lint.findings, counts: lint, check };
    }
    if (id !== runs) return;
    render(view);
    writeState();
    setStatus('', 'done');
  } catch (err) {
    if (id !== runs) return;
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
  renderVerdicts();
  renderFetch(null);
  $('lines').replaceChildren();
  $('file-summary').textContent = '';
}

function showProblems(messages) {
  const box = $('problems');
  box.replaceChildren(...messages.map((m) => el('p', {}, m)));
  box.hidden = messages.length === 0;
}

function render(view) {
  const { check } = view;
  const problems = [];
  if (check.agent_warning) problems.push(check.agent_warning);
  if (check.rules !== 'parsed') problems.push(check.reason);
  for (const e of check.errors) {
    if (check.unreadable && e.severity === 'error') problems.push(`line ${e.line}: ${e.message}`);
  }
  showProblems(problems);
  renderFetch(view.fetch);
  renderAgents(check.agents);
  results = check.results;
  renderVerdicts();
  renderLines(view);
  select(Math.min(selected, results.length - 1));
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
    const tr = el('tr', { class: cls, 'data-index': String(i) },
      el('td', { class: 'verdict' }, word), el('td', { class: 'url' }, r.url), el('td', { class: 'why' }, r.error || r.explain),
      el('td', { class: 'usage' }, usageText(r.usage)));
    if (r.line) tr.dataset.line = String(r.line);
    tr.addEventListener('click', () => select(i));
    return tr;
  });
  $('verdicts').tBodies[0].replaceChildren(...rows);
}

// usageText shows the preferences that the Content-Usage and Content-Signal
// lines state for a URL, with their lines, as robotstxt check prints them.
function usageText(u) {
  if (!u) return '';
  const parts = [];
  const list = (m, word) => Object.entries(m || {}).map(([k, v]) => `${k}=${word(v.pref)} (line ${v.line})`).join(', ');
  const cu = list(u.content_usage, (p) => p);
  if (cu) parts.push('content-usage: ' + cu);
  const cs = list(u.content_signal, (p) => (p === 'y' ? 'yes' : 'no'));
  if (cs) parts.push('content-signal: ' + cs);
  return parts.join('; ');
}

function renderLines(view) {
  const byLine = new Map();
  for (const f of view.findings) {
    if (!byLine.has(f.line)) byLine.set(f.line, []);
    byLine.get(f.line).push(f);
  }
  const decides = new Map();
  for (const r of results) {
    if (!r.line) continue;
    const d = decides.get(r.line) || { allow: r.directive === 'allow', count: 0 };
    d.count++;
    decides.set(r.line, d);
  }
  const items = view.text.map((text, i) => {
    const num = i + 1;
    const li = el('li', { id: 'L' + num, 'data-line': String(num) },
      el('span', { class: 'num' }, String(num)), el('span', { class: 'text' }, text));
    const d = decides.get(num);
    if (d) {
      li.classList.add(d.allow ? 'rule-allow' : 'rule-disallow');
      li.append(el('span', { class: 'decides' }, `decides ${d.count} URL${d.count === 1 ? '' : 's'}`));
    }
    for (const f of byLine.get(num) || []) {
      li.append(el('div', { class: 'finding ' + f.severity }, `${f.severity}: ${f.message}`));
    }
    return li;
  });
  $('lines').replaceChildren(...items);
  const c = view.counts;
  const plural = (k, w) => `${k} ${w}${k === 1 ? '' : 's'}`;
  $('file-summary').textContent = `(${plural(view.text.length, 'line')}; ${plural(c.errors, 'error')}, ` +
    `${plural(c.warnings, 'warning')}, ${c.infos} info${c.infos === 1 ? '' : 's'})`;
}

function select(i) {
  selected = Math.max(i, 0);
  for (const tr of $('verdicts').tBodies[0].rows) tr.classList.toggle('selected', tr.dataset.index === String(i));
  for (const li of $('lines').querySelectorAll('li.hl')) li.classList.remove('hl');
  const r = results[i];
  if (!r || !r.line) return;
  const li = $('L' + r.line);
  if (li) {
    li.classList.add('hl');
    li.scrollIntoView({ block: 'nearest' });
  }
}

async function share() {
  writeState();
  try {
    await navigator.clipboard.writeText(location.href);
    setStatus('Link copied.', document.body.dataset.state);
  } catch {
    const input = $('share-link');
    input.value = location.href;
    input.hidden = false;
    input.select();
    setStatus('Copy the link below.', document.body.dataset.state);
  }
}

let timer = 0;
function later() {
  clearTimeout(timer);
  timer = setTimeout(run, 400);
}

document.addEventListener('DOMContentLoaded', () => {
  $('tab-paste').addEventListener('click', () => { setMode('paste'); later(); });
  $('tab-fetch').addEventListener('click', () => setMode('fetch'));
  $('test').addEventListener('click', () => { clearTimeout(timer); run(); });
  $('share').addEventListener('click', share);
  $('robots').addEventListener('input', () => { setMode('paste'); later(); });
  for (const id of ['agent', 'urls']) {
    $(id).addEventListener('input', () => { if (mode === 'paste') later(); });
  }
  $('fetch-url').addEventListener('keydown', (e) => { if (e.key === 'Enter') run(); });
  window.addEventListener('hashchange', () => { if (readState()) run(); });
  if (!readState()) {
    $('robots').value = example;
    $('urls').value = exampleURLs;
  }
  run();
});
