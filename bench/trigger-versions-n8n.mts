/**
 * The webhook trigger's delivery phase at typeVersion 1 and 1.1 in a real n8n 2.40.7 (`npm run bench:trigger-versions`):
 * the same deliveries, one at a time, alternating between a published trigger at each version, answered in the
 * delivery phase alone (an event type the trigger does not select: 200, no execution), so the time is n8n's webhook
 * handling and the node's check, with n8n's Webhook-v1 body-parsing expression at 1 and without it at 1.1 (docs/trigger.md,
 * "Trigger versions"). Regular mode. It reports figures and fails only on an answer other than that 200.
 */
import { describe, expect, it } from 'vitest';
import { startDeployment, type Deployment } from '../harness/n8n/deployment.mts';
import { triggerWorkflow, type TriggerWorkflow } from '../harness/n8n/real-n8n.mts';
import { percentile } from './percentiles.mts';

const ROUNDS = 400;
const WARM_UP = 50;
const TRIGGERS: TriggerWorkflow[] = [
	{ id: 'benchVersion1', webhookId: '6a1f0c2e-3b4d-4e5f-8a9b-1c2d3e4f5a61', registration: 'manual', typeVersion: 1, parameters: { events: ['job_created'] } },
	{ id: 'benchVersion11', webhookId: '6a1f0c2e-3b4d-4e5f-8a9b-1c2d3e4f5a62', registration: 'manual', typeVersion: 1.1, parameters: { events: ['job_created'] } },
];


async function deliver(deployment: Deployment, trigger: TriggerWorkflow, round: number): Promise<number> {
	const body = JSON.stringify({
		webhook_event_id: `bench-${trigger.id}-${round}`,
		webhook_id: 'whk_bench',
		organization_id: 'org_bench',
		event_type: 'signal',
		event_data: { signal_id: `sig-${round}` },
		created_at: 1_760_000_000,
		updated_at: 1_760_000_000,
	});
	const started = performance.now();
	const response = await fetch(`${deployment.webhookBases[0]}webhook/${trigger.webhookId}/webhook`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
	const answer = (await response.json()) as { reason?: string };
	const took = performance.now() - started;
	expect(response.status).toBe(200);
	expect(answer.reason).toBe('event type not selected');
	return took;
}

describe('the trigger\'s delivery phase by version, in a real n8n', () => {
	it(`${ROUNDS} deliveries per version, one at a time, alternating`, async () => {
		const deployment = await startDeployment('regular', ['--rate-limit', '0'], TRIGGERS.map((t) => `webhook/${t.webhookId}/webhook`), async (n8n) => {
			await n8n.importWorkflows(TRIGGERS.map(triggerWorkflow));
			for (const trigger of TRIGGERS) await n8n.publish(trigger.id);
		});
		try {
			const times = new Map<string, number[]>(TRIGGERS.map((t) => [t.id, []]));
			for (let round = 0; round < WARM_UP + ROUNDS; round++) {
				// Alternate which goes first, so neither always follows the other.
				const order = round % 2 === 0 ? TRIGGERS : [...TRIGGERS].reverse();
				for (const trigger of order) {
					const took = await deliver(deployment, trigger, round);
					if (round >= WARM_UP) times.get(trigger.id)!.push(took);
				}
			}
			for (const trigger of TRIGGERS) {
				const sorted = [...times.get(trigger.id)!].sort((a, b) => a - b);
				const mean = sorted.reduce((a, b) => a + b, 0) / sorted.length;
				console.log(
					`[bench] typeVersion ${trigger.typeVersion}: ${sorted.length} deliveries answered in the delivery phase, p50 ${percentile(sorted, 50).toFixed(2)} ms, p90 ${percentile(sorted, 90).toFixed(2)} ms, p99 ${percentile(sorted, 99).toFixed(2)} ms, mean ${mean.toFixed(2)} ms`,
				);
			}
		} finally {
			await deployment.close();
		}
	});
});
