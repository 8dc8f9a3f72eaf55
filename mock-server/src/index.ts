/** Public API of the mock: the in-process service (handlers for setupServer), the standalone server, and the contract. */
export { createMockService, type MockService } from './service';
export { startMockServer, DEFAULT_HOST, DEFAULT_PORT, type RunningMockServer, type StartOptions } from './server';
export { DEFAULT_OPTIONS, TEST_OPTIONS, type MockServiceOptions } from './options';
export { authenticate } from './http/auth';
export { JournalFilterError, type JournalAnswer, type JournalEntry, type JournalFilter } from './http/journal';
export { DataFileError, type DataFileContent } from './data/data-file';
export { SECOND_ACCOUNT_TOKEN, VOLUME_ACCOUNT_TOKEN } from './data/generate';
export type { Account } from './data/model';
export type { CycleEvent } from './webhooks/index';
export * from './contract';
