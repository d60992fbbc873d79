import { CompressOutlined, ExpandOutlined, UndoOutlined, ZoomInOutlined, ZoomOutOutlined } from '@ant-design/icons';
import { DIALOG_FULLSCREEN_HEIGHT, DIALOG_HEIGHT, DIALOG_WIDTH, IMAGE_ZOOM_MAX, IMAGE_ZOOM_MIN, IMAGE_ZOOM_STEP } from '@bwc/protocol';
import { Button, Modal, Space, Tooltip } from 'antd';
import { useEffect, useRef, useState, type PointerEvent, type ReactNode, type WheelEvent } from 'react';
import { useTranslation } from 'react-i18next';
import './image-zoom.css';

export interface ImageZoomProps {
  open: boolean;
  src: string;
  title?: ReactNode;
  alt?: string;
  onClose: () => void;
  /** The confirm button; closes when absent. */
  onConfirm?: () => void;
}

/** Next scale one step up or down, kept within the limits and free of float drift. */
export function stepScale(scale: number, direction: 1 | -1): number {
  const next = Math.round((scale + direction * IMAGE_ZOOM_STEP) * 10) / 10;
  return Math.min(IMAGE_ZOOM_MAX, Math.max(IMAGE_ZOOM_MIN, next));
}

interface Offset {
  x: number;
  y: number;
}

const ORIGIN: Offset = { x: 0, y: 0 };

/**
 * Image zoom dialog (spec part 2 section 2.4): zoom in and out (0.5 to 2, step 0.1), wheel zoom,
 * drag to pan, reset, full / small screen (85vh / 400px high), confirm.
 */
export function ImageZoom({ open, src, title, alt, onClose, onConfirm }: ImageZoomProps) {
  const { t } = useTranslation('components');
  const [scale, setScale] = useState(1);
  const [offset, setOffset] = useState<Offset>(ORIGIN);
  const [fullScreen, setFullScreen] = useState(false);
  const drag = useRef<{ pointer: number; startX: number; startY: number; from: Offset } | null>(null);

  const reset = () => {
    setScale(1);
    setOffset(ORIGIN);
  };

  // A new picture or a new opening starts at scale 1, centred.
  useEffect(() => {
    if (open) reset();
  }, [open, src]);

  const onWheel = (event: WheelEvent) => {
    if (event.deltaY !== 0) setScale((current) => stepScale(current, event.deltaY < 0 ? 1 : -1));
  };
  const onPointerDown = (event: PointerEvent) => {
    drag.current = { pointer: event.pointerId, startX: event.clientX, startY: event.clientY, from: offset };
    event.currentTarget.setPointerCapture?.(event.pointerId);
  };
  const onPointerMove = (event: PointerEvent) => {
    const current = drag.current;
    if (!current || current.pointer !== event.pointerId) return;
    setOffset({ x: current.from.x + event.clientX - current.startX, y: current.from.y + event.clientY - current.startY });
  };
  const endDrag = () => {
    drag.current = null;
  };

  const tool = (label: string, icon: ReactNode, onClick: () => void, disabled = false) => (
    <Tooltip title={label}>
      <Button aria-label={label} icon={icon} onClick={onClick} disabled={disabled} />
    </Tooltip>
  );

  return (
    <Modal
      open={open}
      title={title ?? t('imageZoom.title')}
      width={fullScreen ? '100%' : DIALOG_WIDTH}
      className={fullScreen ? 'bwc-image-zoom-modal bwc-image-zoom-full' : 'bwc-image-zoom-modal'}
      onCancel={onClose}
      destroyOnHidden
      footer={
        <div className="bwc-image-zoom-footer">
          <Space>
            {tool(t('imageZoom.zoomOut'), <ZoomOutOutlined />, () => setScale((s) => stepScale(s, -1)), scale <= IMAGE_ZOOM_MIN)}
            <span className="bwc-image-zoom-scale" aria-live="polite">
              {Math.round(scale * 100)}%
            </span>
            {tool(t('imageZoom.zoomIn'), <ZoomInOutlined />, () => setScale((s) => stepScale(s, 1)), scale >= IMAGE_ZOOM_MAX)}
            {tool(t('imageZoom.reset'), <UndoOutlined />, reset)}
            {fullScreen
              ? tool(t('imageZoom.smallScreen'), <CompressOutlined />, () => setFullScreen(false))
              : tool(t('imageZoom.fullScreen'), <ExpandOutlined />, () => setFullScreen(true))}
          </Space>
          <Button type="primary" onClick={onConfirm ?? onClose}>
            {t('imageZoom.confirm')}
          </Button>
        </div>
      }
    >
      <div
        className="bwc-image-zoom-stage"
        data-testid="image-zoom-stage"
        style={{ height: fullScreen ? DIALOG_FULLSCREEN_HEIGHT : DIALOG_HEIGHT }}
        onWheel={onWheel}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={endDrag}
        onPointerCancel={endDrag}
      >
        <img
          src={src}
          alt={alt ?? ''}
          draggable={false}
          style={{ transform: `translate(${offset.x}px, ${offset.y}px) scale(${scale})` }}
        />
      </div>
    </Modal>
  );
}
