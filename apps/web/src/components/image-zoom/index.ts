export { ImageZoom, stepScale, type ImageZoomProps } from './ImageZoom';
