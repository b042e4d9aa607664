import { getFormatter, getTranslations } from "next-intl/server";
import { InvitationsList } from "@/components/settings/invitations-list";
import { InviteForm } from "@/components/settings/invite-form";
import { RemoveMember } from "@/components/settings/remove-member";
import { RoleForm } from "@/components/settings/role-form";
import { type OrgRole, roleAtLeast } from "@/lib/access";
import { listInvitations, listMembers } from "@/lib/tenancy";
import { getOrgPageContext } from "../../org-context";
import {
  changeRoleAction,
  inviteMemberAction,
  removeMemberAction,
  resendInvitationAction,
  revokeInvitationAction,
} from "./actions";

export default async function MembersPage({ params }: { params: Promise<{ org: string }> }) {
  const { org: slug } = await params;
  const { ctx, org, role, userId } = await getOrgPageContext(slug);
  const [members, t, tr, format] = await Promise.all([
    listMembers(ctx, slug),
    getTranslations("Members"),
    getTranslations("Roles"),
    getFormatter(),
  ]);
  const isAdmin = roleAtLeast(role, "admin");
  const invitations = isAdmin ? await listInvitations(ctx, slug) : [];
  const now = new Date();
  // Whom the actor may manage: owners everyone, admins everyone but owners; nobody manages themselves here.
  const manageable = (target: OrgRole, targetId: string) =>
    isAdmin && targetId !== userId && (role === "owner" || target !== "owner");
  const assignable: OrgRole[] =
    role === "owner" ? ["owner", "admin", "member", "viewer"] : ["admin", "member", "viewer"];
  return (
    <div className="flex flex-col gap-8">
      {isAdmin ? null : (
        <p role="note" className="rounded-md border border-slate-200 p-3 text-sm dark:border-slate-700">
          {t("readOnly")}
        </p>
      )}
      <section aria-labelledby="members-heading" className="flex flex-col gap-3">
        <h2 id="members-heading" className="text-lg font-semibold">
          {t("heading", { count: members.length })}
        </h2>
        <div className="overflow-x-auto">
          <table className="w-full text-left text-sm">
            <thead className="border-b border-slate-200 dark:border-slate-700">
              <tr>
                <th scope="col" className="py-2 pr-4">
                  {t("name")}
                </th>
                <th scope="col" className="py-2 pr-4">
                  {t("email")}
                </th>
                <th scope="col" className="py-2 pr-4">
                  {t("role")}
                </th>
                <th scope="col" className="py-2 pr-4">
                  {t("joined")}
                </th>
                {isAdmin ? (
                  <th scope="col" className="py-2">
                    {t("actions")}
                  </th>
                ) : null}
              </tr>
            </thead>
            <tbody>
              {members.map((m) => (
                <tr key={m.userId} className="border-b border-slate-100 align-top dark:border-slate-800">
                  <th scope="row" className="py-2 pr-4 font-medium">
                    {m.name}
                    {m.userId === userId ? (
                      <span className="ml-1 text-slate-600 dark:text-slate-400">{t("you")}</span>
                    ) : null}
                  </th>
                  <td className="py-2 pr-4">{m.email}</td>
                  <td className="py-2 pr-4">
                    {manageable(m.role, m.userId) ? (
                      <RoleForm
                        member={{ userId: m.userId, name: m.name, role: m.role }}
                        roles={assignable.includes(m.role) ? assignable : [m.role, ...assignable]}
                        action={changeRoleAction.bind(null, org.slug)}
                      />
                    ) : (
                      tr(m.role)
                    )}
                  </td>
                  <td className="py-2 pr-4">
                    <time
                      dateTime={m.joinedAt.toISOString()}
                      title={format.dateTime(m.joinedAt, { dateStyle: "long", timeStyle: "short" })}
                    >
                      {format.relativeTime(m.joinedAt, now)}
                    </time>
                  </td>
                  {isAdmin ? (
                    <td className="py-2">
                      {manageable(m.role, m.userId) ? (
                        <RemoveMember
                          member={{ userId: m.userId, name: m.name }}
                          orgName={org.name}
                          action={removeMemberAction.bind(null, org.slug)}
                        />
                      ) : null}
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
      {isAdmin ? (
        <>
          <section aria-labelledby="invitations-heading" className="flex flex-col gap-3">
            <h2 id="invitations-heading" className="text-lg font-semibold">
              {t("pendingHeading")}
            </h2>
            <InvitationsList
              invitations={invitations.map((i) => ({
                id: i.id,
                email: i.email,
                role: i.role,
                expired: i.expired,
                expiresAt: i.expiresAt.toISOString(),
                manageable: role === "owner" || i.role !== "owner",
              }))}
              resend={resendInvitationAction.bind(null, org.slug)}
              revoke={revokeInvitationAction.bind(null, org.slug)}
            />
          </section>
          <section aria-labelledby="invite-heading" className="flex flex-col gap-3">
            <h2 id="invite-heading" className="text-lg font-semibold">
              {t("inviteHeading")}
            </h2>
            <InviteForm roles={assignable} action={inviteMemberAction.bind(null, org.slug)} />
          </section>
        </>
      ) : null}
    </div>
  );
}
