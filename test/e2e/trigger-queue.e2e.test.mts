// The trigger's exactly-once cases in n8n's queue mode: Postgres + Redis (Debian's packages, started on free
// loopback ports), a main process, 2 `n8n webhook` and 2 `n8n worker` processes.
import { describeExactlyOnce } from './exactly-once.mts';

describeExactlyOnce('queue');
