/** Public API of the mock: the in-process service (handlers for setupServer), the standalone server, and the contract. */
// First: on a Node too old for the mock, importing the package throws one clear error (see node-version.mts).
import './require-node.mts';
export { createMockService, type MockService } from './service.mts';
export { startMockServer, DEFAULT_HOST, DEFAULT_PORT, type RunningMockServer, type StartOptions } from './server.mts';
export { DEFAULT_OPTIONS, TEST_OPTIONS, type MockServiceOptions } from './options.mts';
export { authenticate } from './http/auth.mts';
export { JournalFilterError, type JournalAnswer, type JournalEntry, type JournalFilter } from './http/journal.mts';
export { DataFileError, type DataFileContent } from './data/data-file.mts';
export { SECOND_ACCOUNT_TOKEN, VOLUME_ACCOUNT_TOKEN } from './data/generate.mts';
export type { Account } from './data/model.mts';
export type { CycleEvent } from './webhooks/index.mts';
export * from './contract.mts';
