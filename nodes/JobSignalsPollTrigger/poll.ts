/**
 * What one call of poll() does: in manual mode ("Fetch test event") the newest
 * item at once, the state untouched (test-event.ts); otherwise the event's poll, and the new
 * state written only after it succeeded.
 */
import { NodeOperationError, type INodeExecutionData, type IPollFunctions } from 'n8n-workflow';
import { TimeBudget } from './read-down';
import { feedFor } from './feeds';
import { pollNew } from './poll-new';
import { pollUpdated } from './poll-updated';
import { isPollEvent, shapePolled } from './properties';
import { readBoolean } from '../shared/parameters';
import { readState, stateKey, writeState } from './position';
import { handOffName, rememberHandOff, savedBeforeLastHandOff } from './recent-hand-offs';
import { testEvent } from './test-event';

/**
 * The polls of each trigger (workflow and node) running in this process. n8n's
 * in-memory scheduler starts a poll at every poll time, even while the last
 * one still runs (a slow answer, retries, a long walk): both would read the
 * same position and emit the same items. A poll that finds one running emits
 * nothing and leaves the position alone; the running poll emits.
 */
const running = new Set<string>();

/** n8n before 2.40 has no getPollBudgetMs: its poll ticks had no deadline, so take the 5 minutes 2.40 gives by default. */
const budgetMs = (context: IPollFunctions) => (typeof context.getPollBudgetMs === 'function' ? context.getPollBudgetMs() : 5 * 60_000);

export async function poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
	const event = this.getNodeParameter('event');
	if (!isPollEvent(event)) throw new NodeOperationError(this.getNode(), `Trigger On must be New Signal, New Job or Updated Job, got ${JSON.stringify(event)}`);
	const parameters = await feedFor(this, event);
	if (this.getMode() === 'manual') return await testEvent(this, event, parameters);
	const feed = { ...parameters, key: stateKey(parameters.key) };
	const trigger = JSON.stringify([this.getWorkflow().id, this.getNode().id]);
	if (running.has(trigger)) {
		this.logger.info('Job Signals (Polling) Trigger: the previous poll of this trigger is still running; this poll time is skipped', { workflowId: this.getWorkflow().id, node: this.getNode().name });
		return null;
	}
	running.add(trigger);
	try {
		const saved = readState(this, feed.key, parameters.key);
		const position = JSON.stringify(saved ?? null);
		const { emitted, state } =
			event === 'updatedJob'
				? await pollUpdated(this, feed, saved)
				: await pollNew(this, feed, saved, readBoolean(this.getNode(), (name, fallback) => this.getNodeParameter(name, fallback), 'includeExisting', 'Include Existing Items', false), new TimeBudget(budgetMs(this)));
		if (emitted.length > 0 && savedBeforeLastHandOff(trigger, position)) {
			this.logger.info('Job Signals (Polling) Trigger: n8n has not saved the position of this trigger\'s last hand-off yet; this poll time is skipped', { workflowId: this.getWorkflow().id, node: this.getNode().name });
			return null;
		}
		if (emitted.length === 0) {
			// A new position (activation) gets a name too: one activated again on the same data is not the same position.
			writeState(this, { ...state, handOff: saved?.handOff ?? handOffName() });
			return null;
		}
		// Shaped before the state moves on: with n8n's default scheduler the state is the workflow's static data, changed
		// in place, so a poll that failed after writing it (Selected Fields with none chosen) would have skipped its items.
		const items = shapePolled(this, event, emitted.map((item) => item.item));
		writeState(this, { ...state, handOff: handOffName() });
		rememberHandOff(trigger, position);
		return [items];
	} finally {
		running.delete(trigger);
	}
}
