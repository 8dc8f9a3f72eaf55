/**
 * IWorkflowExecuteAdditionalData: what n8n's server hands the engine for one
 * execution. The harness provides what running and loading options of a
 * regular action node use (credentials, lifecycle hooks, URLs, variables); the
 * rest (sub-workflows, task runners, AI agents) throws when touched, so a test
 * that strays there fails loudly instead of passing on a stub.
 */
import type { ICredentialDataDecryptedObject, INodeParameters, IWorkflowBase, IWorkflowExecuteAdditionalData } from 'n8n-workflow';
import { HarnessCredentialsHelper } from './credentials-helper.mts';
import type { Packages } from './packages.mts';
import { coreRuntime } from './runtime.mts';

export const EXECUTION_ID = 'harness-execution';
const BASE_URL = 'http://n8n.harness';

const notInHarness = (what: string) => () => {
	throw new Error(`${what} is not available in the test harness`);
};

export function additionalData(options: {
	packages: Packages;
	credentials: Record<string, ICredentialDataDecryptedObject>;
	workflowData: IWorkflowBase;
	currentNodeParameters?: INodeParameters;
}): IWorkflowExecuteAdditionalData {
	const data: Partial<IWorkflowExecuteAdditionalData> = {
		credentialsHelper: new HarnessCredentialsHelper(options.packages, options.credentials),
		hooks: new coreRuntime.ExecutionLifecycleHooks('manual', EXECUTION_ID, options.workflowData),
		executionId: EXECUTION_ID,
		currentNodeExecutionIndex: 0,
		currentNodeParameters: options.currentNodeParameters,
		variables: {},
		instanceBaseUrl: BASE_URL,
		restApiUrl: `${BASE_URL}/rest`,
		formBaseUrl: `${BASE_URL}/form`,
		formWaitingBaseUrl: `${BASE_URL}/form-waiting`,
		formTestBaseUrl: `${BASE_URL}/form-test`,
		webhookBaseUrl: `${BASE_URL}/webhook`,
		webhookWaitingBaseUrl: `${BASE_URL}/webhook-waiting`,
		webhookTestBaseUrl: `${BASE_URL}/webhook-test`,
		mcpBaseUrl: `${BASE_URL}/mcp`,
		mcpTestBaseUrl: `${BASE_URL}/mcp-test`,
		executeWorkflow: notInHarness('executeWorkflow'),
		getRunExecutionData: notInHarness('getRunExecutionData'),
		getRuntimeCredential: notInHarness('getRuntimeCredential'),
		startRunnerTask: notInHarness('startRunnerTask'),
		logAiEvent: () => undefined,
	};
	return data as IWorkflowExecuteAdditionalData;
}
