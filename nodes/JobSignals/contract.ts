/**
 * The node's window on the API contract. The lists and paths live once, in the
 * mock server's contract folder (plain data there; tsup bundles it into dist).
 * The node never imports the zod schemas: n8n packages carry no runtime dependencies.
 */
export {
	API_PATHS,
	APP_PATHS,
	CHOICES,
	CURSOR_PARAMS,
	EMAIL_ADDRESS_PATTERN,
	fillPath,
	LIMITS,
} from '../../mock-server/src/contract/api';
export {
	SIGNAL_CATEGORIES,
	SIGNAL_GROUPS,
	findCategory,
	isSignalGroup,
	signalCategoryName,
	signalIds,
	signalTypeName,
} from '../../mock-server/src/contract/hierarchy';
export { JOB_CATEGORIES } from '../../mock-server/src/contract/job-categories';
