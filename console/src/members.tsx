/** A members panel: who holds which role, add or change one, remove one. Boards and drafts workspaces share it. */
import { useState, type FormEvent, type ReactNode } from "react";
import { api } from "./api";
import { t } from "./i18n";
import { useSession } from "./session";
import { ErrorNote, Reason, useAction } from "./ui";

export function MembersPanel<Role extends "owner" | "admin" | "editor" | "viewer">({
  idPrefix,
  base,
  members,
  roles,
  closed,
  reload,
}: {
  /** Prefixes the element ids (two panels never share a page today; the ids stay distinct anyway). */
  idPrefix: string;
  /** The members route: `PUT`/`DELETE` of `<base>/<person>`. */
  base: string;
  members: { person_id: string; role: Role }[];
  roles: readonly Role[];
  /** Why the panel is read-only, or null. */
  closed: string | null;
  reload: () => Promise<void>;
}): ReactNode {
  const session = useSession();
  const [person, setPerson] = useState("");
  const [role, setRole] = useState<Role>("editor" as Role);
  const change = useAction();
  async function submit(event: FormEvent) {
    event.preventDefault();
    if (await change.run(() => api("PUT", `${base}/${encodeURIComponent(person.trim())}`, { role }))) {
      setPerson("");
      await reload();
    }
  }
  return (
    <section aria-labelledby={`${idPrefix}members-title`}>
      <h2 id={`${idPrefix}members-title`}>{t("members.title")}</h2>
      <table>
        <thead>
          <tr>
            <th scope="col">{t("members.person")}</th>
            <th scope="col">{t("members.role")}</th>
            <th scope="col">
              <span className="visually-hidden">{t("cancel")}</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {members.map((member) => (
            <tr key={member.person_id}>
              <td>{member.person_id}</td>
              <td>{t(`role.${member.role}`)}</td>
              <td>
                <button
                  type="button"
                  className="link"
                  disabled={closed !== null || member.person_id === session.personId}
                  aria-label={t("members.remove", { person: member.person_id })}
                  onClick={() => void change.run(() => api("DELETE", `${base}/${encodeURIComponent(member.person_id)}`)).then(reload)}
                >
                  ✕
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <form className="inline-form" onSubmit={(event) => void submit(event)} aria-label={t("members.add")}>
        <label htmlFor={`${idPrefix}member-person`}>{t("members.person")}</label>
        <input
          id={`${idPrefix}member-person`}
          required
          maxLength={200}
          value={person}
          disabled={closed !== null}
          onChange={(e) => setPerson(e.target.value)}
        />
        <label htmlFor={`${idPrefix}member-role`}>{t("members.role")}</label>
        <select id={`${idPrefix}member-role`} value={role} disabled={closed !== null} onChange={(e) => setRole(e.target.value as Role)}>
          {roles.map((value) => (
            <option key={value} value={value}>
              {t(`role.${value}`)}
            </option>
          ))}
        </select>
        <button type="submit" disabled={closed !== null || change.busy}>
          {t("members.save")}
        </button>
        <Reason reason={closed} />
        <ErrorNote error={change.error} />
      </form>
    </section>
  );
}
