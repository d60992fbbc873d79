import { LOCAL_SAVE_DEFAULTS, LocalSaveForm, PRODUCT_PREFIX } from '@bwc/protocol';

/** Browser-local save settings (spec part 1 section 3), kept with the product prefix. */
export const LOCAL_SAVE_STORAGE_KEY = `${PRODUCT_PREFIX}local_save`;

export function readLocalSave(): LocalSaveForm {
  try {
    const raw = localStorage.getItem(LOCAL_SAVE_STORAGE_KEY);
    if (!raw) return { ...LOCAL_SAVE_DEFAULTS };
    const parsed = LocalSaveForm.safeParse({ ...LOCAL_SAVE_DEFAULTS, ...(JSON.parse(raw) as object) });
    return parsed.success ? parsed.data : { ...LOCAL_SAVE_DEFAULTS };
  } catch {
    return { ...LOCAL_SAVE_DEFAULTS };
  }
}

export function writeLocalSave(values: LocalSaveForm): void {
  localStorage.setItem(LOCAL_SAVE_STORAGE_KEY, JSON.stringify(LocalSaveForm.parse(values)));
}
