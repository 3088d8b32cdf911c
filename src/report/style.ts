// The report's inline stylesheet and script: no fonts, images or anything from the network.
export const CSS = `
*{box-sizing:border-box}
body{margin:0;font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif;color:#1d232a;background:#f4f6f8}
header{background:#1f2d3d;color:#fff;padding:18px 28px}
header h1{margin:0 0 6px;font-size:20px;font-weight:600}
header .meta{color:#c9d3dd;font-size:13px}
header .meta span{margin-right:18px}
.pill{display:inline-block;padding:2px 10px;border-radius:12px;font-weight:600;font-size:12px;color:#fff}
main{padding:18px 28px 40px;max-width:1400px}
section{background:#fff;border:1px solid #dde3e9;border-radius:8px;margin:0 0 18px;padding:14px 18px}
h2{font-size:16px;margin:0 0 10px}
table{border-collapse:collapse;width:100%}
th,td{text-align:left;padding:5px 8px;border-bottom:1px solid #eef1f4;vertical-align:top}
th{font-size:12px;color:#5b6773;text-transform:uppercase;letter-spacing:.03em}
td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}
td.zero{color:#b7c0c8}
.badge{display:inline-block;padding:1px 7px;border-radius:4px;color:#fff;font-size:12px;font-weight:600}
.legend{display:flex;gap:14px;font-size:12px;color:#5b6773;margin:4px 0 10px}
.legend i{display:inline-block;width:12px;height:12px;border-radius:2px;margin-right:4px;vertical-align:-2px}
.tl-row{display:flex;align-items:center;margin:5px 0}
.tl-host{width:170px;flex:none;font-weight:600;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.tl-track{position:relative;flex:1;height:24px;background:#f0f3f6;border-radius:4px}
.tl-bar{position:absolute;top:3px;height:18px;min-width:3px;border-radius:3px;opacity:.92;cursor:pointer}
.tl-bar:hover{opacity:1;outline:2px solid #1f2d3d}
.tl-axis{display:flex;margin-left:170px;justify-content:space-between;font-size:11px;color:#7b8794}
details{margin:6px 0}
summary{cursor:pointer;font-weight:600}
.card{border:1px solid #e3e8ed;border-left:4px solid #d89a00;border-radius:6px;padding:8px 12px;margin:10px 0}
.card.failed{border-left-color:#d13c3c}
.card h3{margin:0 0 4px;font-size:14px}
.card .where{color:#7b8794;font-size:12px}
pre{margin:4px 0;padding:8px 10px;background:#f7f9fb;border:1px solid #e6ebf0;border-radius:4px;overflow:auto;font:12.5px/1.4 ui-monospace,"DejaVu Sans Mono",Menlo,monospace;white-space:pre-wrap;word-break:break-word}
pre.stderr{background:#fff4f4;border-color:#f3caca}
.diff .dl{display:block}
.diff .da{color:#17692f;background:#e6f6ea}
.diff .dd{color:#a01d1d;background:#fdecec}
.diff .dh{color:#5b6773;font-weight:600}
.diff .dr{color:#6f42c1}
.out-label{font-size:12px;color:#5b6773;margin-top:6px}
.muted{color:#7b8794}
.hidden{display:none}
.toolbar{margin:0 0 10px;font-size:13px}
`;

// Clicking a timeline bar opens and scrolls to that host's task row.
export const JS = `
document.querySelectorAll('.tl-bar').forEach(function(b){b.addEventListener('click',function(){
  var row=document.getElementById(b.dataset.target); if(!row) return;
  var d=row.closest('details'); if(d) d.open=true;
  row.scrollIntoView({block:'center'}); row.style.background='#fff6d6';
  setTimeout(function(){row.style.background='';},1500);});});
var only=document.getElementById('only-changes');
if(only) only.addEventListener('change',function(){
  document.querySelectorAll('tr.st-ok,tr.st-skipped').forEach(function(r){r.classList.toggle('hidden',only.checked);});});
`;
