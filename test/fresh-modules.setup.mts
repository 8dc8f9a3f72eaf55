/**
 * Test files share their worker process (`isolate: false` in vitest.config.mts): n8n-core, n8n-workflow, MSW and the
 * other libraries load once per worker, not once per file, which took a quarter of the suite's time. What keeps state
 * still starts fresh for each file, as in a process of its own: the repository's modules (vitest's registry), the
 * package's built dist/ (Node's require cache, where the harness loads it as n8n does), and n8n-core's one
 * deduplication store (harness/in-process/deduplication.mts gives it a new one).
 */
import { join, sep } from 'node:path';
import { vi } from 'vitest';
import { coreRuntime, PACKAGE_ROOT, requireFromRoot } from '../harness/in-process/runtime.mts';

vi.resetModules();
const dist = join(PACKAGE_ROOT, 'dist') + sep;
for (const path of Object.keys(requireFromRoot.cache)) if (path.startsWith(dist)) delete requireFromRoot.cache[path];
// n8n-core allows one store per process and has no call to remove it.
(coreRuntime.DataDeduplicationService as unknown as { instance?: unknown }).instance = undefined;
