/**
 * What the three nodes' descriptions (this node, the Trigger, the Poll Trigger) have in common: the one credential,
 * tested by the one credential test (found through testedBy). (Icons stay literal in each node: the official lint reads them from the source.)
 */
import type { INodeCredentialDescription } from 'n8n-workflow';
import { CREDENTIAL_TYPE } from './transport/request';
import { jobSignalsApiTest } from './transport/credential-test';

export const jobSignalsCredentials: INodeCredentialDescription[] = [{ name: CREDENTIAL_TYPE, required: true, testedBy: 'jobSignalsApiTest' }];

/** The nodes' `methods.credentialTest`. */
export const credentialTestMethods = { jobSignalsApiTest };
