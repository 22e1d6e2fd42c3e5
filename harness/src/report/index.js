// index.html: the filters of the case table, inlined by html.rs (no external reference).
(function(){
var q=document.getElementById('f-text'),lane=document.getElementById('f-lane'),cls=document.getElementById('f-class'),count=document.getElementById('f-count');
var rows=[].slice.call(document.querySelectorAll('#case-table tbody tr'));
var dets=[].slice.call(document.querySelectorAll('#diffs details.case'));
var rt=rows.map(function(e){return e.textContent.toLowerCase();});
var dt=dets.map(function(e){return e.querySelector('summary').textContent.toLowerCase();});
function ok(e,t,txt){var l=lane.value,c=cls.value;
return (!l||e.getAttribute('data-lane')===l)&&(!c||e.getAttribute('data-class')===c||(c==='failure'&&e.hasAttribute('data-failure')))&&(!t||txt.indexOf(t)>=0);}
function apply(){var t=q.value.toLowerCase(),n=0;
rows.forEach(function(e,i){var s=ok(e,t,rt[i]);e.hidden=!s;if(s)n++;});
dets.forEach(function(e,i){e.hidden=!ok(e,t,dt[i]);});
count.textContent=n+' of '+rows.length+' shown';}
q.addEventListener('input',apply);lane.addEventListener('change',apply);cls.addEventListener('change',apply);
[].forEach.call(document.querySelectorAll('a[data-filter-class]'),function(a){a.addEventListener('click',function(){
lane.value=a.getAttribute('data-filter-lane')||'';cls.value=a.getAttribute('data-filter-class')||'';q.value='';apply();});});
document.getElementById('filters').hidden=false;apply();
})();
