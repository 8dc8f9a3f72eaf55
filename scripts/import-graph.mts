/** Prints the room → room import arrows of a checkout (default: this one): `node scripts/import-graph.mts [DIR]`. */
import { resolve } from 'node:path';
import { importGraph, roomArrows } from '../harness/import-graph.mts';

const root = resolve(process.argv[2] ?? resolve(import.meta.dirname, '..'));
const { files, edges } = importGraph(root);
console.log(`${files.length} files, ${edges.length} imports of the repository's own files (relative, or by one of its package names)`);
for (const [arrow, count] of roomArrows(edges)) console.log(`${String(count).padStart(4)}  ${arrow}`);
