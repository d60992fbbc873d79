// Page side of bench/live-latency.ts (injected with page.addScriptTag after mpegts.js and the
// transpiled clock-strip.ts): players of WS-FLV URLs with the LivePlayer's mpegts configuration and
// its catch-up tick, first-frame times and, per displayed frame, the clock strip's age.
// (plain JavaScript in a string: it runs in the page as written, untouched by tsx; the LivePlayer's
// catch-up numbers and rule are put in from its module, so the bench measures what the console runs)
import { catchUp, LIVE_CATCH_UP, MPEGTS_LIVE_CONFIG } from '../apps/web/src/features/video/player/catchUp';

export const PAGE_JS = String.raw`
(() => {
  // the LivePlayer's own numbers and catch-up rule (apps/web/src/features/video/player/LivePlayer.ts)
  const LIVE_CATCH_UP = ${JSON.stringify(LIVE_CATCH_UP)};
  const catchUp = ${catchUp.toString()};
  const MPEGTS_LIVE_CONFIG = ${JSON.stringify(MPEGTS_LIVE_CONFIG)};
  const players = new Map();
  let next = 1;
  const canvas = document.createElement('canvas');
  const ctx = canvas.getContext('2d', { willReadFrequently: true });

  function play(url, opts) {
    const id = next++;
    const video = document.createElement('video');
    video.muted = true;
    video.autoplay = true;
    video.playsInline = true;
    video.style.width = opts.width || '640px';
    video.style.height = opts.height || '360px';
    document.getElementById(opts.parent || 'wall').appendChild(video);
    const p = { id, video, url, requestedAt: Date.now(), firstFrameAt: 0, lat: [], buf: [], unread: 0, frames: 0, errors: [], sample: !!opts.sample, closed: false, lastJump: -Infinity };
    const player = mpegts.createPlayer(
      { type: 'flv', isLive: true, url },
      MPEGTS_LIVE_CONFIG,
    );
    p.player = player;
    player.on(mpegts.Events.ERROR, (type, detail) => p.errors.push(type + ' ' + detail));
    player.attachMediaElement(video);
    player.load();
    Promise.resolve(player.play()).catch(() => undefined);
    const onFrame = (_now, meta) => {
      if (p.closed) return;
      const at = Date.now();
      if (video.videoWidth > 0) {
        p.frames += 1;
        if (!p.firstFrameAt) p.firstFrameAt = at;
        if (p.sample) {
          const w = meta.width || video.videoWidth;
          const h = meta.height || video.videoHeight;
          if (canvas.width !== w) canvas.width = w;
          if (canvas.height !== h) canvas.height = h;
          ctx.drawImage(video, 0, 0, w, h);
          const value = readClockStrip(ctx.getImageData(0, 0, w, h).data, w, h);
          // the age when the frame is shown: now + (its expected display time - now)
          const shownAt = at + Math.max(0, meta.expectedDisplayTime - performance.now());
          if (value === null) p.unread += 1;
          else {
            p.lat.push(clockStripAgeMs(value, shownAt));
            // what the player holds ahead of the shown frame, ms
            const b = video.buffered;
            p.buf.push(b.length ? (b.end(b.length - 1) - video.currentTime) * 1000 : NaN);
          }
        }
      }
      video.requestVideoFrameCallback(onFrame);
    };
    video.requestVideoFrameCallback(onFrame);
    // the LivePlayer's tick: jump back near the live edge or play a little faster (catchUp)
    p.ticker = setInterval(() => {
      const b = video.buffered;
      if (!b.length || video.paused || video.seeking) return;
      const end = b.end(b.length - 1);
      const now = performance.now();
      const { seekBack, rate } = catchUp(end - video.currentTime, (now - p.lastJump) / 1000);
      if (seekBack !== null) {
        video.currentTime = end - seekBack;
        p.lastJump = now;
      }
      if (video.playbackRate !== rate) video.playbackRate = rate;
    }, LIVE_CATCH_UP.tickMs);
    players.set(id, p);
    return id;
  }

  function info(id) {
    const p = players.get(id);
    const q = p.video.getVideoPlaybackQuality();
    return {
      requestedAt: p.requestedAt,
      firstFrameAt: p.firstFrameAt,
      frames: p.frames,
      totalVideoFrames: q.totalVideoFrames,
      droppedVideoFrames: q.droppedVideoFrames,
      errors: p.errors,
      width: p.video.videoWidth,
    };
  }

  function sampling(id, on) {
    const p = players.get(id);
    p.sample = on;
    if (on) {
      p.lat = [];
      p.buf = [];
      p.unread = 0;
    }
    return { lat: p.lat, buf: p.buf, unread: p.unread };
  }

  function close(id) {
    const p = players.get(id);
    if (!p) return;
    p.closed = true;
    clearInterval(p.ticker);
    try {
      p.player.pause();
      p.player.unload();
      p.player.detachMediaElement();
      p.player.destroy();
    } catch {
      /* already gone */
    }
    p.video.remove();
    players.delete(id);
  }

  window.liveBench = { play, info, sampling, close, now: () => Date.now() };
})();
`;
