export {
  startSimulator,
  simulatedIdentity,
  type SimulatorOptions,
  type SimulatorStats,
  type StopSimulator,
} from './fleet';
export {
  DeviceApiError,
  DeviceClient,
  provisionDevices,
  Transport,
  type Position,
  type TransportOptions,
} from './client';
export {
  haversineM,
  metresPerDegree,
  rng,
  SPEED_KMH,
  StreetWalker,
  type Fix,
  type MoverKind,
  type PathOptions,
} from './path';
export { findProvisionKey, parseInterval } from './options';
