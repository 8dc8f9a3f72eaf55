/** Public API of the mock: the in-process service (handlers for setupServer), the standalone server, and the contract. */
// First: on a Node too old for the mock, importing the package throws one clear error (see node-version.mts).
import './base/node-version.mts';
export { createMockService, type MockService } from './service.mts';
export { startMockServer, DEFAULT_HOST, DEFAULT_PORT, type RunningMockServer, type StartOptions } from './server.mts';
export { DEFAULT_OPTIONS, TEST_OPTIONS, type MockServiceOptions } from './options.mts';
export { authenticate } from './http/route.mts';
export { JournalFilterError, type JournalAnswer, type JournalEntry, type JournalFilter } from './http/journal.mts';
export { DataFileError, type DataFileContent } from './data/data-file.mts';
export { MappingError, StubsFull, type LoggedRequest, type RequestVerification, type Scenario, type ServeEvent, type StubMapping, type StubsApi } from './wiremock/index.mts';
export { SECOND_ACCOUNT_TOKEN, VOLUME_ACCOUNT_TOKEN } from './data/generate.mts';
export type { Account, StoredJob } from './data/model.mts';
export {
	createWebhooks, DeliveryKnobError, type CycleEvent, type DeliveryLogEntry, type DeliveryOrigin, type FailureRule, type FailureRuleInput, type QueuedDelivery,
} from './webhooks/index.mts';
export { MockClock, type ClockState } from './base/clock.mts';
export type { CycleSizes } from './cycles/cycle.mts';
export { openApiControlDocument } from './openapi/control-document.mts';
export * from './contract.mts';
