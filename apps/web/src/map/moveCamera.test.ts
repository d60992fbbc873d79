import { describe, expect, it } from 'vitest';
import { moveCamera, type CameraTarget } from './moveCamera';

class FakeMap {
  moving = false;
  moves: string[] = [];
  private ends: (() => void)[] = [];
  isMoving() {
    return this.moving;
  }
  once(_type: 'moveend', listener: () => void) {
    this.ends.push(listener);
  }
  easeTo(o: CameraTarget & { duration: number }) {
    this.moves.push(`ease ${o.center.join(',')} ${o.duration} ms`);
  }
  flyTo(o: CameraTarget) {
    this.moves.push(`fly ${o.center.join(',')}`);
  }
  /** the user's drag ends */
  stop() {
    this.moving = false;
    for (const end of this.ends.splice(0)) end();
  }
}

const target: CameraTarget = { center: [114.05, 22.54], zoom: 15, offset: [0, 100] };

describe('moveCamera', () => {
  it("flies for the user's own locate, even while the map moves", () => {
    const map = new FakeMap();
    map.moving = true;
    moveCamera(map, target, false);
    expect(map.moves).toEqual(['fly 114.05,22.54']);
  });

  it('jumps in one frame for a locate the user did not ask for', () => {
    const map = new FakeMap();
    moveCamera(map, target, true);
    expect(map.moves).toEqual(['ease 114.05,22.54 0 ms']);
  });

  it('waits until the user has stopped dragging before it jumps', () => {
    const map = new FakeMap();
    map.moving = true;
    moveCamera(map, target, true);
    expect(map.moves).toEqual([]);
    map.stop();
    expect(map.moves).toEqual(['ease 114.05,22.54 0 ms']);
  });
});
