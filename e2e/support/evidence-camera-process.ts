// A simulated body camera's recording, for the evidence spec (run under tsx by evidence-camera.ts):
// records one clip with the simulator's recorder (ffmpeg test pattern with the device's name and a
// running clock, H.264/AAC MP4) and sends it over tus to the device upload path with the device's
// token, as the simulator's fleet does. Prints one JSON line: the clip and the item the server named.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { ClipQueue } from '../../packages/simulator/src/evidence/queue';
import { recordClip } from '../../packages/simulator/src/evidence/recorder';
import { uploadClip } from '../../packages/simulator/src/evidence/uploader';

interface Args {
  server: string;
  token: string;
  hostbody: string;
  hostname: string;
  dir: string;
  seconds: number;
}

const args = JSON.parse(process.argv[2]!) as Args;
// the queue first: opening a folder removes clips it does not list
const queue = new ClipQueue(args.dir);
const clip = await recordClip({
  kind: 'video',
  dir: args.dir,
  identity: { hostbody: args.hostbody, hostname: args.hostname },
  seconds: args.seconds,
});
const sha256 = createHash('sha256').update(readFileSync(clip.path)).digest('hex');
const entry = queue.add(clip);
const outcome = await uploadClip(queue, entry, { server: args.server, authorization: () => `Bearer ${args.token}` });
process.stdout.write(`${JSON.stringify({ ...clip, sha256, itemId: outcome.itemId, result: outcome.result })}\n`);
