import { RE2JS, RE2Set } from 're2js';
import { loadavg } from 'node:os';
const random = (length, seed) => { let x = seed, out = ''; for (let i = 0; i < length; i++) { x = (x * 1103515245 + 12345) & 0x7fffffff; out += (x >> 16) & 1 ? 'a' : 'b'; } return out; };
console.log('load', loadavg());
const mem = Number(process.argv[2] ?? 65536);
let worst = 0;
const cases = [];
for (const n of [5, 20, 60, 150, 490]) for (const len of [500, 4000, 16384]) cases.push([`[ab]*a[ab]{${n}}`, random(len, n + len)]);
for (const len of [4000, 16384]) { cases.push(['(?:a?){150}a{150}', 'a'.repeat(len)]); cases.push(['(?:[ab]|a[ab]{490}b)*c', random(len, 3)]); cases.push(['(?:a|b|ab|ba|aab|abb)*[ab]{100}c', random(len, 5)]); cases.push(['(\\w+\\s?)+x', 'ab '.repeat(len/3)]); cases.push(['.*foo.*', 'x'.repeat(len)]);}
cases.push(['.*foo.*', 'x'.repeat(1 << 20)]);
cases.push(['[^/]{1,200}', 'x'.repeat(16384)]);
for (const [src, text] of cases) {
  const prog = RE2JS.compile(src, RE2JS.DOTALL).programSize();
  const units = prog * (text.length + 1);
  const times = [];
  for (let r = 0; r < 3; r++) {
    const set = new RE2Set(RE2Set.ANCHOR_BOTH, RE2JS.DOTALL, mem); set.add(src); set.compile();
    const s = performance.now(); set.match(text); const t1 = performance.now() - s;
    const s2 = performance.now(); set.match(text); const t2 = performance.now() - s2;
    times.push(t1, t2);
  }
  const t = Math.min(...times), tmax = Math.max(...times);
  const ns = tmax * 1e6 / units; if (ns > worst) worst = ns;
  console.log(`${src.padEnd(36)} prog ${String(prog).padStart(3)} len ${String(text.length).padStart(7)} units ${(units/1e6).toFixed(2)}M min ${t.toFixed(1)} max ${tmax.toFixed(1)} ms  ${ns.toFixed(1)} ns/unit`);
}
console.log('worst ns/unit', worst.toFixed(1), 'load', loadavg());
