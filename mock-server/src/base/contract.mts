/**
 * The mock's one door to the service contract (contract/ at the repository's ground floor): every file of src/ takes
 * contract facts from here, so what the mock uses of the contract is read in one place. It is a file of its own, not
 * the package's public `/contract` entry (src/contract.mts): that entry also carries the OpenAPI document from
 * openapi/, a floor above, so importing it from below would import up a floor.
 */
export * from '../../../contract/index';
export { readSearch, type SearchAlternative, type SearchReading } from '../../../contract/search-syntax';
