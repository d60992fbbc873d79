export { MapView, useMap, type MapViewProps } from './MapView';
export { DevicesLayer, DEVICE_LAYER, DEVICE_SOURCE } from './DevicesLayer';
export { DrawControl, type DrawShape } from './DrawControl';
export { DevicePointStore } from './pointStore';
export { devicesInRing } from './selection';
export { toDisplay, fromDisplay, normaliseCrs, type MapCrs } from './coords';
export { markerState, nameWithCode, hasPosition, type DeviceMarkerState } from './points';
export { STATE_COLORS } from './images';
