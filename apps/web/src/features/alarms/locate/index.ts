export { AlarmLocateDialog, type AlarmLocateDialogProps } from './AlarmLocateDialog';
export { markerPosition, type Coordinate } from './position';
