/** Signal → Get Many: the signals of a group, a category or a type, all pages or up to a limit. */
import { NodeOperationError, updateDisplayOptions, type IExecuteFunctions, type INodeProperties, type INodePropertyOptions } from 'n8n-workflow';
import { LIMITS } from '../../../shared/contract';
import { belowMinimum, readSignalSelection, SIGNAL_LEVELS, signalFilterProperties } from '../../../shared/signal-filters';
import { perItem, readLimit } from '../../helpers/items';
import { pageNumberList } from '../../../shared/pages/list-kinds';
import { collectPages } from '../../../shared/pages/collect';
import { shapedOutput } from '../../../shared/output/action';
import { readOptions, pagingOptions, wholeOption, withTotals } from '../../helpers/paging-options';
import { returnAllAndLimit, simplifyProperty, outputFor } from '../common.description';

/** Its entry in the resource's Operation list (its value is this file's name). */
export const option: INodePropertyOptions = {
	name: 'Get Many',
	value: 'getAll',
	description: 'Get the intent signals (problems or changes) of a group, category or type',
	action: 'Get many signals',
};

const options = pagingOptions(
	{
		displayName: 'Start At Page',
		name: 'startPage',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: 1,
		description: 'The page to start from, e.g. the resume_at.page of an earlier run with Include Totals',
	},
	[
		{
			displayName: 'Minimum Match',
			name: 'minMatch',
			type: 'options',
			options: SIGNAL_LEVELS,
			default: 1,
			description: 'Only signals that match their type this closely or more (signal_match, 1–3); filtered in the node, after the service answered',
		},
		{
			displayName: 'Minimum Severity',
			name: 'minSeverity',
			type: 'options',
			options: SIGNAL_LEVELS,
			default: 1,
			description: 'Only signals this severe or more (signal_severity, 1–3); filtered in the node, after the service answered',
		},
		{
			displayName: 'Page Size',
			name: 'pageSize',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: LIMITS.signalsMaxPerPage },
			default: 100,
			description: `Signals per call (per_page, at most ${LIMITS.signalsMaxPerPage}). Unset: what the limit needs. Keep it the same between runs that resume with Start At Page.`,
		},
	],
	'Totals, where to start (to resume an earlier run), page size, and minimum severity or match',
);

const properties: INodeProperties[] = [...signalFilterProperties, ...returnAllAndLimit, simplifyProperty, ...outputFor('signal'), options];

export const description = updateDisplayOptions({ show: { resource: ['signal'], operation: ['getAll'] } }, properties);

export const execute = perItem(async function (this: IExecuteFunctions, itemIndex: number) {
	const { target, filters } = readSignalSelection(this.getNode(), (name, fallback) => this.getNodeParameter(name, itemIndex, fallback), itemIndex);
	const limit = readLimit(this, itemIndex);
	const opts = readOptions(this, itemIndex);
	const minSeverity = wholeOption(this, opts, 'minSeverity', 'Minimum Severity', 1, 1, itemIndex);
	const minMatch = wholeOption(this, opts, 'minMatch', 'Minimum Match', 1, 1, itemIndex);
	const filtering = minSeverity > 1 || minMatch > 1;
	// A client-side filter drops items, so a limit alone cannot size the page: then the largest page.
	const needed = filtering ? undefined : limit;
	const perPage = wholeOption(this, opts, 'pageSize', 'Page Size', 1, Math.min(needed ?? LIMITS.signalsMaxPerPage, LIMITS.signalsMaxPerPage), itemIndex);
	if (perPage > LIMITS.signalsMaxPerPage) throw new NodeOperationError(this.getNode(), `Page Size is at most ${LIMITS.signalsMaxPerPage}, got ${perPage}`, { itemIndex });
	const startPage = wholeOption(this, opts, 'startPage', 'Start At Page', 1, 1, itemIndex);
	const collected = await collectPages(this, { request: { ...target, operation: 'Signal → Get Many' }, list: pageNumberList(perPage, filters, startPage) }, {
		limit,
		keep: filtering ? (s) => belowMinimum(s, minSeverity, minMatch) === undefined : undefined,
	});
	return withTotals(shapedOutput(this, itemIndex, 'signal', collected.items), opts, collected.summary);
});
