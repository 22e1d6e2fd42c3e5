// index.html's case browser, inlined by html.rs. A lane's cases load on demand from
// data/<lane>.js (a <script src>: a page opened from file:// may not fetch); every value
// reaches the page through textContent, never as markup.
(function(){
var $=function(id){return document.getElementById(id);};
var lane=$('f-lane');if(!lane)return;
var cls=$('f-class'),q=$('f-text'),go=$('f-go'),count=$('f-count'),table=$('case-table'),body=table.tBodies[0];
var more=$('f-more'),detail=$('detail'),note=$('cases-note');
var PAGE=500,data={},pending={},matches=[],shown=0,want=null,active=false,lc='',scroll=false;
var all=[].slice.call(lane.options).map(function(o){return o.value;}).filter(Boolean);
window.wireshapeLane=function(d){data[d.lane]=d;delete pending[d.lane];if(active)apply();};
function load(l){if(data[l]||pending[l])return;pending[l]=1;var s=document.createElement('script');
s.src='data/'+encodeURIComponent(l)+'.js';
s.onerror=function(){delete pending[l];count.textContent='cannot load data/'+l+'.js: keep the data/ folder beside index.html';};
document.head.appendChild(s);}
function el(tag,c,text){var e=document.createElement(tag);if(c)e.className=c;if(text!=null)e.textContent=text;return e;}
function add(p,c){p.appendChild(c);return c;}
function badge(t){return el('span','badge '+t,t);}
function badges(td,r){add(td,badge(r.class));[r.verdict,r.semantic,r.violations?'violation':null].forEach(function(b){
if(b){td.appendChild(document.createTextNode(' '));add(td,badge(b));}});}
function text(d,r){if(r._t==null){r._t=[r.case].concat((r.tags||[]).map(function(i){return d.tags[i];}),(r.ledger||[]).map(function(i){return d.ledger[i].class;}),
r.verdict||[]).join(' ').toLowerCase();}return r._t;}
function apply(){active=true;if(history.replaceState)history.replaceState(null,'','#cases='+encodeURIComponent(lane.value||'all'));var ls=lane.value?[lane.value]:all,missing=ls.filter(function(l){return !data[l];});
if(missing.length){missing.forEach(load);count.textContent='loading '+missing.join(', ')+'…';return;}
var t=q.value.toLowerCase(),c=cls.value;matches=[];
ls.forEach(function(l){var d=data[l];d.cases.forEach(function(r){
if(c&&r.class!==c&&!(c==='failure'&&r.failure))return;if(t&&text(d,r).indexOf(t)<0)return;
if(lc&&!(r.ledger||[]).some(function(i){return d.ledger[i].class===lc;}))return;matches.push([d,r]);});});
body.textContent='';shown=0;table.hidden=false;note.hidden=true;page();
if(scroll){scroll=false;$('cases').scrollIntoView();}
if(want){var w=want;want=null;matches.forEach(function(m){if(m[0].lane===w[0]&&m[1].case===w[1])show(m[0],m[1]);});}}
function page(){var end=Math.min(shown+PAGE,matches.length),f=document.createDocumentFragment();
for(;shown<end;shown++)f.appendChild(row(matches[shown][0],matches[shown][1]));body.appendChild(f);
count.textContent=matches.length+' cases'+(lc?' of ledger class '+lc:'')+(shown<matches.length?', '+shown+' shown':'');more.hidden=shown>=matches.length;}
function row(d,r){var tr=el('tr');add(tr,el('td','mono',d.lane));
var a=add(add(tr,el('td','case mono')),el('a',null,r.case));a.href='#detail';a.onclick=function(e){e.preventDefault();show(d,r);};
badges(add(tr,el('td')),r);var td=add(tr,el('td'));(r.tags||[]).forEach(function(i){add(td,el('code','tag',d.tags[i]));});
td=add(tr,el('td'));(r.ledger||[]).forEach(function(i,n){var m=d.ledger[i];if(n)add(td,el('br'));
var b=add(td,el('b',null,m.class));b.title=m.file+'#'+m.index+': '+m.reason;});
td=add(tr,el('td'));(r.violations||[]).forEach(function(v,n){if(n)add(td,el('br'));add(td,el('b',null,v.invariant));
td.appendChild(document.createTextNode(' ('+v.pipeline+'): '+v.message.split('\n')[0]));});return tr;}
function diffClass(l){return /^(\+\+\+|---)/.test(l)?'hdr':l[0]==='@'?'hunk':l[0]==='+'?'add':l[0]==='-'?'del':'ctx';}
function side(p,which,s,wire){var h=add(p,el('h4',null,which+': '));add(h,el('code',null,s.pipeline));
h.appendChild(document.createTextNode(' · '+s.outcome+' · '));var sha=add(h,el('span','mono',s.sha256.slice(0,12)));sha.title='sha256 '+s.sha256;
var body=wire!=null?wire:s.detail;if(body!=null)add(p,el('pre',null,body));else add(p,el('p','muted','no wire output recorded'));
if(wire!=null&&s.detail)add(p,el('p','muted',s.detail));
if(s.rejected_by)add(p,el('p','muted','rejected by '+s.rejected_by.join(', ')));
var m=s.semantic;if(m){h=add(p,el('h4',null,'semantic: '));add(h,badge(m.class));if(m.silent){h.appendChild(document.createTextNode(' '));add(h,badge('silent'));}
(m.narrowed_kinds||[]).forEach(function(k){h.appendChild(document.createTextNode(' '));add(h,el('code','tag',k));});
add(h,el('span','muted',' ('+m.instances+' instances)'));
[['narrowed','narrowed: the author\u2019s schema accepts, this output refuses'],['widened','widened: the author\u2019s schema refuses, this output accepts']].forEach(function(w){
if(m[w[0]]!==undefined){add(p,el('p','muted',w[1]));add(p,el('pre',null,JSON.stringify(m[w[0]],null,2)));}});
if(m.reason)add(p,el('p','muted',m.reason));}
if(s.degradations){add(p,el('h4',null,'degradations ('+s.degradations.length+')'));var ul=add(p,el('ul','plain mono'));
s.degradations.forEach(function(g){add(ul,el('li',null,g));});}}
function show(d,r){detail.textContent='';var box=add(detail,el('div','case'));var h=add(box,el('h3'));badges(h,r);
add(h,el('span','mono',' '+d.lane+'::'+r.case));var b=add(box,el('div','body'));
if(r.tags){var p=add(b,el('p'));r.tags.forEach(function(i){add(p,el('code','tag',d.tags[i]));});}
if(r.ledger){add(b,el('h4',null,'ledger'));var ul=add(b,el('ul','plain'));r.ledger.forEach(function(i){var m=d.ledger[i],li=add(ul,el('li'));
add(li,el('code',null,m.file+'#'+m.index));li.appendChild(document.createTextNode(' '));add(li,el('b',null,m.class));
li.appendChild(document.createTextNode(': '+m.reason));});}
if(r.violations){add(b,el('h4',null,'invariant violations'));r.violations.forEach(function(v){var p=add(b,el('p','v'));add(p,el('b',null,v.invariant));
add(p,el('span','muted',' ('+v.pipeline+')'));add(b,el('pre',null,v.message));});}
var x=d.details[r.case];
if(!x){add(b,el('p','muted','This case\u2019s sides and diff are not in data/ (kept for the first cases only, failures first): its hashes and degradations are in outcomes.json.'));}
else{var sides=add(b,el('div','sides'));side(add(sides,el('div')),'old',x.old,x.wire?x.wire.old:null);side(add(sides,el('div')),'new',x.new,x.wire?x.wire.new:null);
if(x.wire&&x.wire.unified){add(b,el('h4',null,'unified diff'));var pre=add(b,el('pre','diff'));x.wire.unified.split('\n').forEach(function(l,i,a){
if(i===a.length-1&&l==='')return;add(pre,el('span',diffClass(l),l+'\n'));});}}
detail.scrollIntoView();}
function user(){lc='';apply();}
go.onclick=user;q.addEventListener('keydown',function(e){if(e.key==='Enter')user();});
lane.addEventListener('change',user);cls.addEventListener('change',user);
more.querySelector('button').onclick=page;
[].forEach.call(document.querySelectorAll('a[data-filter-lane]'),function(a){a.addEventListener('click',function(){
lane.value=a.getAttribute('data-filter-lane')||'';cls.value=a.getAttribute('data-filter-class')||'';q.value='';lc=a.getAttribute('data-filter-ledger')||'';apply();});});
[].forEach.call(document.querySelectorAll('a[data-open-lane]'),function(a){a.addEventListener('click',function(){
lane.value=a.getAttribute('data-open-lane');cls.value='';q.value='';lc='';want=[lane.value,a.getAttribute('data-open-case')];apply();});});
// #cases=<lane> (or #cases=all) opens the browser on that lane: a link to a lane's cases.
function fromHash(){var m=/^#cases=(.+)$/.exec(location.hash);if(!m)return;var l=decodeURIComponent(m[1]);
if(l==='all'||all.indexOf(l)>=0){lane.value=l==='all'?'':l;cls.value='';q.value='';lc='';scroll=true;apply();}}
window.addEventListener('hashchange',fromHash);
$('filters').hidden=false;fromHash();
})();
