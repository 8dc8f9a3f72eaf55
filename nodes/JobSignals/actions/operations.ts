// Written by scripts/operations-index.mts from the *.operation.ts files beside it (npm run generate): do not edit.
import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import type { OperationRun } from '../helpers/items';
import * as collectionGetAll from './collection/getAll.operation';
import * as deduplicationKeepNew from './deduplication/keepNew.operation';
import * as jobGet from './job/get.operation';
import * as jobGetAllForSource from './job/getAllForSource.operation';
import * as jobGetFilters from './job/getFilters.operation';
import * as jobSearch from './job/search.operation';
import * as signalGetAll from './signal/getAll.operation';
import * as sourceGet from './source/get.operation';
import * as sourceGetAllInCollection from './source/getAllInCollection.operation';
import * as subscriberUpload from './subscriber/upload.operation';

export interface Operation {
	option: INodePropertyOptions;
	description: INodeProperties[];
	execute: OperationRun;
}

export const OPERATIONS = {
	collection: { getAll: collectionGetAll },
	deduplication: { keepNew: deduplicationKeepNew },
	job: { get: jobGet, getAllForSource: jobGetAllForSource, getFilters: jobGetFilters, search: jobSearch },
	signal: { getAll: signalGetAll },
	source: { get: sourceGet, getAllInCollection: sourceGetAllInCollection },
	subscriber: { upload: subscriberUpload },
} satisfies Record<string, Record<string, Operation>>;
