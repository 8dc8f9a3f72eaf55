/**
 * What the three nodes (this node, the Trigger, the Poll Trigger) share beyond their properties: the credential test
 * method, found through each credential entry's testedBy. The credential entries themselves stay literal in each
 * node's description: the official lint (credential-test-required) reads them from the node's source.
 */
import { jobSignalsApiTest } from './transport/credential-test';

/** The nodes' `methods.credentialTest`. */
export const credentialTestMethods = { jobSignalsApiTest };
