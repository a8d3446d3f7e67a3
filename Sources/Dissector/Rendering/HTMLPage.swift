/// The HTML view's page around its data: one self-contained file (inline CSS and script, no
/// network access). Written as ``head(title:)``, then one line per frame from
/// ``HTMLRenderer`` (inside a `<script type="application/x-ndjson" id="packets">` element),
/// then ``tail``, so a capture streams into it frame by frame.
///
/// The CSS and the script live here as raw string literals, not as files next to the sources:
/// a SwiftPM resource needs `Bundle.module` (Foundation) and a declared resource in
/// Package.swift, and a copy kept in step by a test is two places to edit. The browser tests
/// (Tests/Browser) exercise the script.
public enum HTMLPage {
    /// Everything before the first frame's line; `title` names the capture.
    public static func head(title: String) -> String {
        var escaped = ""
        for character in title.unicodeScalars {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            default: escaped.unicodeScalars.append(character)
            }
        }
        return """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="generator" content="dissect">
            <title>\(escaped) · dissect</title>
            <style>\(css)</style>
            <script>\(script)</script>
            </head>
            <body>
            <header><b>dissect</b> <span id="title">\(escaped)</span>
            <input id="search" type="search" spellcheck="false" placeholder="search a field path or value: dns.questions[0].name, 10.1.2.3 (Enter: next)">
            <span id="status"></span></header>
            <div id="list" tabindex="0"><div id="spacer"></div></div>
            <div id="info"></div>
            <main><div id="hex" tabindex="0"></div><div id="tree" tabindex="0"></div></main>
            <script type="application/x-ndjson" id="packets">

            """
    }

    /// Everything after the last frame's line.
    public static let tail = "</script>\n</body>\n</html>\n"

    /// Colors follow the terminal views' palette, in its order (Style.palette: cyan, yellow,
    /// green, magenta, blue, then their bright forms), for light and dark schemes.
    static let css = #"""
:root{--bg:#fff;--fg:#1d1f21;--dim:#8a8f98;--line:#e3e5e8;--sel:#ffe9a8;--hov:#e4efff;--err:#c62828;--errbg:#fde7e7;--cut:#a86b00;
--c0:#00838f;--c1:#946200;--c2:#2e7d32;--c3:#a626a4;--c4:#1f5fbf;--c5:#0097a7;--c6:#b07800;--c7:#3f8f44;--c8:#c2349f;--c9:#3d6fe0;color-scheme:light dark}
@media (prefers-color-scheme:dark){:root{--bg:#16181c;--fg:#d7dae0;--dim:#7b818c;--line:#2c3038;--sel:#5a4a10;--hov:#223450;--err:#ff6b6b;--errbg:#3a1c1c;--cut:#e0a84a;
--c0:#56d4dd;--c1:#e5c07b;--c2:#98c379;--c3:#c678dd;--c4:#61afef;--c5:#8be9fd;--c6:#ffe08a;--c7:#b5e890;--c8:#f0a0ff;--c9:#8cc8ff}}
*{box-sizing:border-box}body{margin:0;background:var(--bg);color:var(--fg);font:13px/1.45 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;display:flex;flex-direction:column;height:100vh}
header{padding:6px 10px;border-bottom:1px solid var(--line);display:flex;gap:10px;align-items:center}
#search{flex:1;font:inherit;padding:3px 6px;background:var(--bg);color:var(--fg);border:1px solid var(--line);border-radius:4px}
#status{color:var(--dim);white-space:nowrap}#status .bit{color:var(--fg);background:var(--sel);font-weight:bold}
#list{height:30vh;min-height:60px;overflow:auto;position:relative;border-bottom:1px solid var(--line);outline:none}
#spacer{position:relative}
.row{position:absolute;left:0;right:0;height:20px;padding:0 10px;white-space:pre;overflow:hidden;text-overflow:ellipsis;cursor:default}
.row:hover{background:var(--hov)}.row.sel{background:var(--sel)}.row.bad{color:var(--err)}
#info{padding:6px 10px;border-bottom:1px solid var(--line);white-space:pre-wrap}
#info .e{color:var(--err);background:var(--errbg);padding:1px 4px;border-radius:3px}#info .u{color:var(--cut)}
#info a{color:var(--c4);cursor:pointer;text-decoration:underline}
main{flex:1;display:flex;min-height:0}
#hex{overflow:auto;padding:6px 10px;border-right:1px solid var(--line);white-space:pre;outline:none;flex:none}
#tree{overflow:auto;padding:6px 10px;flex:1;outline:none}
#hex .o{color:var(--dim)}#hex span[data-o]{cursor:pointer}
.c0{color:var(--c0)}.c1{color:var(--c1)}.c2{color:var(--c2)}.c3{color:var(--c3)}.c4{color:var(--c4)}
.c5{color:var(--c5)}.c6{color:var(--c6)}.c7{color:var(--c7)}.c8{color:var(--c8)}.c9{color:var(--c9)}
.gu{color:var(--dim);text-decoration:underline dotted}.gp{color:var(--err);background:var(--errbg)}.ef{color:#fff;background:var(--err)}
#hex .hv{background:var(--hov)}#hex .hl{background:var(--sel);outline:1px solid var(--c1)}#hex .hl.bits{text-decoration:underline wavy}
.n{margin-left:14px}.r{white-space:pre-wrap;cursor:default;border-radius:3px;padding:0 3px}.r:hover{background:var(--hov)}.r.sel{background:var(--sel)}
.t{display:inline-block;width:12px;color:var(--dim)}.has>.r>.t::before{content:'\25be'}.has.closed>.r>.t::before{content:'\25b8'}.closed>.k{display:none}
.L>.r{font-weight:bold}.r .p{color:var(--dim)}.r.er{color:var(--err)}.r.cu{color:var(--cut)}.r .bad{color:var(--err)}
"""#

    /// The page's script: plain ES2017, no dependencies.
    static let script = #"""
'use strict';
(function () {
var text = '', starts = [], summaries = [], cache = new Map(), current = -1, pkt = null, selected = -1;
var rowHeight = 20, hexSpans = [], asciiSpans = [], hovered = [], marked = [];
var $ = function (id) { return document.getElementById(id); };
function esc(s) { return String(s).replace(/[&<>"]/g, function (c) { return {'&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;'}[c]; }); }
function hex2(n) { return (n < 16 ? '0' : '') + n.toString(16); }

function init() {
  var t0 = performance.now();
  text = $('packets').textContent;
  var i = 0, n = text.length;
  while (i < n) {
    var j = text.indexOf('\n', i);
    if (j < 0) j = n;
    if (text.charCodeAt(i) === 123) starts.push(i);
    i = j + 1;
  }
  summaries = new Array(starts.length);
  $('spacer').style.height = (starts.length * rowHeight) + 'px';
  if (starts.length * rowHeight < $('list').clientHeight) $('list').style.height = (starts.length * rowHeight + 2) + 'px';
  $('list').addEventListener('scroll', function () { requestAnimationFrame(drawList); });
  $('list').addEventListener('click', function (e) {
    var row = e.target.closest('.row'); if (row) select(+row.dataset.k);
  });
  $('hex').addEventListener('click', function (e) {
    var o = e.target.dataset && e.target.dataset.o; if (o !== undefined) clickByte(+o);
  });
  $('hex').addEventListener('mouseover', function (e) {
    var o = e.target.dataset && e.target.dataset.o;
    if (o !== undefined && pkt && pkt.own[+o] >= 0) hover(pkt.own[+o]);
  });
  $('hex').addEventListener('mouseleave', function () { hover(-1); });
  $('tree').addEventListener('click', function (e) {
    var r = e.target.closest('.r'); if (!r) return;
    var node = r.parentNode;
    if (e.target.classList.contains('t')) { node.classList.toggle('closed'); return; }
    selectField(+node.dataset.i, false);
  });
  $('tree').addEventListener('mouseover', function (e) {
    var r = e.target.closest('.r'); hover(r ? +r.parentNode.dataset.i : -1);
  });
  $('tree').addEventListener('mouseleave', function () { hover(-1); });
  $('info').addEventListener('click', function (e) {
    var a = e.target.closest('a'); if (!a) return;
    if (a.dataset.frame) { var k = findFrame(+a.dataset.frame); if (k >= 0) select(k); }
    if (a.dataset.field) selectField(+a.dataset.field, true);
  });
  $('search').addEventListener('keydown', function (e) {
    if (e.key === 'Enter') { e.preventDefault(); search($('search').value.trim()); }
    if (e.key === 'Escape') $('search').blur();
  });
  document.addEventListener('keydown', keys);
  drawList();
  if (starts.length) select(0);
  $('status').textContent = starts.length + ' packet' + (starts.length === 1 ? '' : 's');
  window.dissect.loadMs = performance.now() - t0;
  document.body.setAttribute('data-ready', '1');
}

function lineOf(k) { var e = text.indexOf('\n', starts[k]); return text.slice(starts[k], e < 0 ? text.length : e); }

// The summary is read from the line without parsing the rest of it.
function summary(k) {
  if (summaries[k] !== undefined) return summaries[k];
  var at = text.indexOf('"summary":"', starts[k]), s = '';
  if (at >= 0) {
    var i = at + 11, begin = i;
    while (i < text.length && text.charCodeAt(i) !== 34) i += text.charCodeAt(i) === 92 ? 2 : 1;
    try { s = JSON.parse('"' + text.slice(begin, i) + '"'); } catch (e) { s = '?'; }
  }
  summaries[k] = s;
  return s;
}

function packet(k) {
  var p = cache.get(k);
  if (p) return p;
  p = JSON.parse(lineOf(k));
  var f = p.fields, n = f.length, leaf = 0, b = new Uint8Array(p.bytes.length >> 1);
  for (var j = 0; j < b.length; j++) b[j] = parseInt(p.bytes.substr(j * 2, 2), 16);
  p.b = b; p.paths = new Array(n); p.kids = []; p.ord = new Int32Array(n).fill(-1); p.own = new Int32Array(b.length).fill(-1);
  p.gap = new Uint8Array(b.length);
  for (var i = 0; i < n; i++) {
    var x = f[i], parent = x[1], name = x[0];
    p.paths[i] = (x[2] & 16) || parent < 0 || parent >= i ? name : p.paths[parent] + (name.charAt(0) === '[' ? '' : '.') + name;
    p.kids.push([]);
    if (parent >= 0 && parent < i) p.kids[parent].push(i);
    if ((x[2] & 15) > 1 || (x[2] & 192)) p.ord[i] = leaf++;
    // Fields come in pre-order: the last to claim a byte is the innermost.
    if (!(x[2] & 32)) for (var o = x[3]; o < x[3] + x[4] && o < b.length; o++) p.own[o] = i;
  }
  p.gaps.forEach(function (g) { for (var o = g[0]; o < g[0] + g[1] && o < b.length; o++) p.gap[o] = g[2] ? 2 : 1; });
  cache.set(k, p);
  if (cache.size > 200) cache.delete(cache.keys().next().value);
  return p;
}

function drawList() {
  var list = $('list'), spacer = $('spacer');
  var first = Math.max(0, Math.floor(list.scrollTop / rowHeight) - 5);
  var last = Math.min(starts.length, first + Math.ceil(list.clientHeight / rowHeight) + 10);
  var html = '';
  for (var k = first; k < last; k++) {
    var s = summary(k), cls = 'row' + (k === current ? ' sel' : '') + (s.indexOf('\u2717') >= 0 || s.indexOf('[bad checksum') >= 0 ? ' bad' : '');
    html += '<div class="' + cls + '" data-k="' + k + '" style="top:' + (k * rowHeight) + 'px">' + esc(s) + '</div>';
  }
  spacer.innerHTML = html;
}

function select(k) {
  if (k < 0 || k >= starts.length) return;
  current = k; selected = -1; hovered = []; marked = [];
  pkt = packet(k);
  var list = $('list'), top = k * rowHeight;
  if (top < list.scrollTop) list.scrollTop = top;
  else if (top + rowHeight > list.scrollTop + list.clientHeight) list.scrollTop = top + rowHeight - list.clientHeight;
  drawList(); drawInfo(); drawHex(); drawTree();
  // The tree opens to where the walk stopped.
  var stop = pkt.error || pkt.cut;
  if (stop) openTo(rowOf(stop.field));
}

function openTo(n) {
  for (var up = n && n.parentNode; up && up.id !== 'tree'; up = up.parentNode) if (up.classList.contains('n')) up.classList.remove('closed');
}

function findFrame(number) {
  var key = '{"frame":' + number + ',';
  for (var k = Math.min(number - 1, starts.length - 1); k >= 0; k--) if (text.startsWith(key, starts[k])) return k;
  for (k = 0; k < starts.length; k++) if (text.startsWith(key, starts[k])) return k;
  return -1;
}

function drawInfo() {
  var p = pkt, h = esc(summary(current));
  if (p.reassembled) {
    h += '\n<span class="u">reassembled ' + esc(p.reassembled) + ' from frames ' + p.frames.map(function (f) {
      return '<a data-frame="' + f + '">' + f + '</a>'; }).join(', ') + '</span>';
    p.provenance.forEach(function (r) {
      h += '\n  bytes ' + r[2] + '\u2013' + (r[2] + r[3] - 1) + ' \u2190 <a data-frame="' + r[0] + '">frame ' + r[0] + '</a> offset ' + r[1];
    });
    p.missing.forEach(function (m) { h += '\n  <span class="e">bytes ' + m[0] + '\u2013' + (m[1] - 1) + ' never received</span>'; });
  }
  if (p.error) h += '\n<span class="e">\u2717 ' + esc(p.error.message) + '</span> <a data-field="' + p.error.field + '">show</a>';
  if (p.cut) h += '\n<span class="u">[|' + esc(p.cut.path.split('.')[0]) + '] ' + esc(p.cut.message) + '</span> <a data-field="' + p.cut.field + '">show</a>';
  var unclaimed = 0, unparsed = 0;
  p.gaps.forEach(function (g) { if (g[2]) unparsed += g[1]; else unclaimed += g[1]; });
  if (unclaimed) h += '\n<span class="gu">' + unclaimed + ' bytes no field claims</span>';
  if (unparsed) h += '\n<span class="gp">' + unparsed + ' bytes after the error, not dissected</span>';
  $('info').innerHTML = h;
}

function byteClass(p, o) {
  var i = p.own[o];
  if (p.gap[o]) return p.gap[o] === 2 ? 'gp' : 'gu';
  if (i < 0) return '';
  if (p.fields[i][2] & 64) return 'ef';
  return p.ord[i] >= 0 ? 'c' + (p.ord[i] % 10) : '';
}

function byteTitle(p, o) {
  var t = 'offset ' + o, i = p.own[o];
  if (i >= 0) t += ': ' + p.paths[i];
  else if (p.gap[o]) t += p.gap[o] === 2 ? ': after the error' : ': no field claims it';
  if (p.provenance) p.provenance.forEach(function (r) {
    if (o >= r[2] && o < r[2] + r[3]) t += ' (frame ' + r[0] + ' offset ' + (r[1] + o - r[2]) + ')';
  });
  return t;
}

function drawHex() {
  var p = pkt, b = p.b, h = '';
  for (var line = 0; line < b.length; line += 16) {
    var hx = '', asc = '';
    for (var o = line; o < line + 16; o++) {
      if (o >= b.length) { hx += o === line + 8 ? '    ' : '   '; continue; }
      var c = byteClass(p, o), t = esc(byteTitle(p, o)), ch = b[o] >= 32 && b[o] < 127 ? esc(String.fromCharCode(b[o])) : '.';
      hx += (o === line + 8 ? '  ' : ' ') + '<span data-o="' + o + '" class="' + c + '" title="' + t + '">' + hex2(b[o]) + '</span>';
      asc += '<span data-o="' + o + '" class="' + c + '">' + ch + '</span>';
    }
    h += '<span class="o">' + ('000' + line.toString(16)).slice(-4) + '</span>' + hx + '  |' + asc + '|\n';
  }
  if (!b.length) h = '<span class="o">(no bytes)</span>';
  $('hex').innerHTML = h;
  hexSpans = []; asciiSpans = [];
  $('hex').querySelectorAll('span[data-o]').forEach(function (s, n) {
    var o = +s.dataset.o;
    if (hexSpans[o]) asciiSpans[o] = s; else hexSpans[o] = s;
  });
}

function label(p, i) {
  var x = p.fields[i], fl = x[2], path = p.paths[i];
  var loc = 'offset ' + x[3] + ', ' + x[4] + ' byte' + (x[4] === 1 ? '' : 's');
  if (x.length > 7) loc = 'offset ' + x[3] + ', bits ' + x[7] + '\u2013' + (x[7] + x[8] - 1) + ' (' + x[8] + ' bit' + (x[8] === 1 ? '' : 's') + ')';
  var h;
  if (fl & 16) h = esc(x[5]) + ' <span class="p">(' + esc(x[0]) + '), ' + x[4] + ' bytes</span>';
  else h = esc(x[0]) + ((fl & 15) > 1 || x[5] ? ': ' + esc(x[5]) : '');
  if ((fl & 15) === 1) h = esc(x[0]) + ': <span class="p">' + esc(x[5]) + '</span>';
  if (fl & 64 && p.error) h = esc(x[0]) + ': \u2717 ' + esc(p.error.message);
  if (fl & 128 && p.cut) h = esc(x[0]) + ': [|' + esc(p.paths[i].split('.')[0]) + '] ' + esc(p.cut.message);
  if (fl & 256) h += ' <span class="bad">[bad checksum]</span>';
  if (fl & 32) h += ' <span class="p">(derived)</span>';
  return { html: h, title: path + (x[6] && x[6] !== path ? ' \u00b7 filter ' + x[6] : '') + ' \u00b7 ' + loc };
}

function drawTree() {
  var p = pkt, out = [];
  function node(i, depth) {
    var x = p.fields[i], kids = p.kids[i], l = label(p, i);
    var cls = 'n' + (x[2] & 16 ? ' L' : '') + (kids.length ? ' has' : '') + (kids.length && depth >= 2 ? ' closed' : '');
    var rc = 'r' + (x[2] & 64 ? ' er' : '') + (x[2] & 128 ? ' cu' : '');
    var c = p.ord[i] >= 0 && !(x[2] & 192) ? ' c' + (p.ord[i] % 10) : '';
    out.push('<div class="' + cls + '" data-i="' + i + '" data-path="' + esc(p.paths[i]) + '"><div class="' + rc + '" title="' + esc(l.title) + '">' +
      '<span class="t"></span><span class="v' + c + '">' + l.html + '</span></div>');
    if (kids.length) { out.push('<div class="k">'); kids.forEach(function (k) { node(k, depth + 1); }); out.push('</div>'); }
    out.push('</div>');
  }
  p.fields.forEach(function (x, i) { if (x[1] < 0 || x[1] >= i) node(i, 0); });
  if (!p.fields.length) out.push('<div class="p">(no fields)</div>');
  $('tree').innerHTML = out.join('');
}

function rowOf(i) { return $('tree').querySelector('.n[data-i="' + i + '"]'); }

function bytesOf(i) {
  var x = pkt.fields[i], r = [];
  if (x[2] & 32) return r;
  for (var o = x[3]; o < x[3] + x[4] && o < pkt.b.length; o++) r.push(o);
  return r;
}

function paint(list, cls, on) {
  list.forEach(function (o) {
    [hexSpans[o], asciiSpans[o]].forEach(function (s) { if (s) s.classList.toggle(cls, on); });
  });
}

function hover(i) {
  paint(hovered, 'hv', false);
  hovered = i >= 0 && pkt ? bytesOf(i) : [];
  paint(hovered, 'hv', true);
}

function selectField(i, reveal) {
  if (!pkt || i < 0 || i >= pkt.fields.length) return;
  paint(marked, 'hl', false); paint(marked, 'bits', false);
  var old = $('tree').querySelector('.r.sel');
  if (old) old.classList.remove('sel');
  selected = i; marked = bytesOf(i);
  var x = pkt.fields[i];
  paint(marked, 'hl', true);
  if (x.length > 6) paint(marked, 'bits', true);
  var n = rowOf(i);
  if (!n) return;
  openTo(n);
  var r = n.firstChild;
  r.classList.add('sel');
  if (reveal) r.scrollIntoView({ block: 'nearest' });
  if (marked.length && hexSpans[marked[0]]) hexSpans[marked[0]].scrollIntoView({ block: 'nearest' });
  $('status').textContent = r.title;
  if (x.length > 7) $('status').insertAdjacentHTML('beforeend', ' \u00b7 ' + bitStrip(marked, x[7], x[8]));
}

// A bit field's bytes in binary, most significant bit first (as the tree's `.1.. ....`),
// its own bits marked: `0001 <b>1</b>000`.
function bitStrip(bytes, first, width) {
  var out = [];
  bytes.forEach(function (o, n) {
    var byte = '';
    for (var bit = 0; bit < 8; bit++) {
      var at = n * 8 + bit, v = (pkt.b[o] >> (7 - bit)) & 1;
      byte += (bit === 4 ? ' ' : '') + (at >= first && at < first + width ? '<b class="bit">' + v + '</b>' : v);
    }
    out.push(byte);
  });
  return '<span class="bits">' + out.join('  ') + '</span>';
}

function clickByte(o) {
  if (!pkt) return;
  if (pkt.own[o] >= 0) selectField(pkt.own[o], true);
  else $('status').textContent = byteTitle(pkt, o);
}

// Search: a field whose path is the query (or ends with it), or whose value shown contains it;
// from the selected field on, packet after packet, wrapping round.
function search(q) {
  if (!q || !starts.length) return;
  var steps = q.split(/[.\[\]]/).filter(Boolean), token = /^[\w.:\-\[\] \/]+$/.test(q) ? steps[steps.length - 1] || q : '';
  function hit(p, i) {
    var path = p.paths[i], shown = p.fields[i][5];
    return path === q || path.endsWith('.' + q) || (shown && shown.indexOf(q) >= 0);
  }
  var k0 = Math.max(0, current);
  for (var step = 0; step <= starts.length; step++) {
    var k = (k0 + step) % starts.length;
    if (token && lineOf(k).indexOf(token) < 0) continue;
    var p = packet(k), from = step === 0 ? selected + 1 : 0;
    for (var i = from; i < p.fields.length; i++) {
      if (!hit(p, i)) continue;
      if (k !== current) select(k);
      selectField(i, true);
      $('status').textContent = 'found: packet ' + (k + 1) + ', ' + p.paths[i];
      return true;
    }
  }
  $('status').textContent = 'not found: ' + q;
  return false;
}

function visibleRows() {
  return Array.prototype.filter.call($('tree').querySelectorAll('.r'), function (r) { return r.offsetParent !== null; });
}

function keys(e) {
  var t = e.target;
  if (t.id === 'search') return;
  if (e.key === '/' ) { e.preventDefault(); $('search').focus(); return; }
  if (t.closest && t.closest('#tree') && pkt) {
    var rows = visibleRows(), at = rows.findIndex(function (r) { return r.classList.contains('sel'); });
    var n = at >= 0 ? rows[at].parentNode : null;
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      var next = rows[Math.max(0, Math.min(rows.length - 1, at + (e.key === 'ArrowDown' ? 1 : -1)))];
      if (next) selectField(+next.parentNode.dataset.i, true);
    } else if (n && (e.key === 'ArrowRight' || e.key === 'ArrowLeft' || e.key === 'Enter')) {
      var hasKids = pkt.kids[+n.dataset.i].length > 0;
      if (e.key === 'Enter' && hasKids) n.classList.toggle('closed');
      else if (e.key === 'ArrowRight' && hasKids) n.classList.remove('closed');
      else if (e.key === 'ArrowLeft') {
        if (hasKids && !n.classList.contains('closed')) n.classList.add('closed');
        else if (pkt.fields[+n.dataset.i][1] >= 0) selectField(pkt.fields[+n.dataset.i][1], true);
      }
    } else return;
    e.preventDefault();
    return;
  }
  if (e.key === 'ArrowDown' || e.key === 'j') select(current + 1);
  else if (e.key === 'ArrowUp' || e.key === 'k') select(current - 1);
  else if (e.key === 'ArrowRight' || e.key === 'Enter') { $('tree').focus(); if (selected < 0 && pkt && pkt.fields.length) selectField(0, true); }
  else return;
  e.preventDefault();
}

window.dissect = { count: function () { return starts.length; }, packet: packet, select: select, selectField: selectField,
  search: search, current: function () { return current; }, selected: function () { return selected; } };
document.addEventListener('DOMContentLoaded', init);
})();
"""#
}
