import { RE2JS, RE2Set } from 're2js';
import { loadavg } from 'node:os';
console.log(loadavg());
for (const src of ['[ab]*a[ab]{490}', '(?:a?){150}a{150}', '/v2/jobs/[^/]+', '(?:alpha|beta|gamma|delta|epsilon|zeta|eta|theta|iota|kappa|lambda|mu|nu|xi|omicron|pi|rho|sigma|tau|upsilon|phi|chi|psi|omega|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty)']) {
  const prog = RE2JS.compile(src, RE2JS.DOTALL).programSize();
  const N = 200; const s = performance.now();
  for (let i = 0; i < N; i++) { const set = new RE2Set(RE2Set.ANCHOR_BOTH, RE2JS.DOTALL, 65536); set.add(src); set.compile(); set.match('x'); }
  const t = (performance.now() - s) / N;
  console.log(src.slice(0, 30), 'prog', prog, 'len', src.length, 'compile+1 match', t.toFixed(3), 'ms', (t * 1e6 / prog).toFixed(0), 'ns/inst');
}
