/**
 * A name with its code in brackets (`name(code)`, as the spec writes devices and officers), where
 * the line may break inside the name but never inside the code: an officer code or device number
 * read across two lines is easily misread.
 */
export function NameWithCode({ name, code }: { name: string; code?: string | null }) {
  if (!code) return <>{name}</>;
  return (
    <>
      {name}
      <span className="bwc-code">({code})</span>
    </>
  );
}
