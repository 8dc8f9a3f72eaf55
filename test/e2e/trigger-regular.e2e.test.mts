// The trigger's exactly-once cases in a real `n8n start` (regular mode, SQLite).
import { describeExactlyOnce } from './exactly-once.mts';

describeExactlyOnce('regular');
