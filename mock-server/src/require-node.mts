/**
 * Imported first by the package's entry (index.mts): on a Node too old for the mock, importing
 * the package throws one clear error naming the Node needed and the one running, before msw or
 * node:sqlite fail in their own words (tsup builds this as its own file, so it runs first).
 */
import { nodeVersionProblem } from './node-version.mts';

const problem = nodeVersionProblem();
if (problem !== undefined) throw new Error(problem);
