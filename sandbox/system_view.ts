/**
 * What a sandbox sees of the system: programs and libraries, read-only, and from /etc only what
 * programs need to run, never its secrets (/etc/shadow, /etc/ssh host keys, /etc/ssl/private).
 */
export interface SystemView {
  /** bubblewrap's absolute path. */
  readonly bwrap: string;
  /**
   * Link runs as root: bubblewrap makes no user namespace (it would map uid 0 to root), and the
   * program runs as the sandbox's own unprivileged uid, dropped to by util-linux's setpriv inside.
   */
  readonly root?: boolean;
  /** setpriv's absolute path, when Link runs as root. */
  readonly setpriv?: string;
  /** Top folders beside /usr (/bin, /lib64, ...): a symlink into /usr on merged systems, else a folder. */
  readonly top: readonly TopEntry[];
  /** Secret system paths that exist here, hidden again whenever a grant covers them. */
  readonly secrets: readonly { path: string; folder: boolean }[];
}

/** One of /bin, /sbin, /lib, /lib32, /lib64, /libx32. */
export type TopEntry = { path: string; kind: "symlink"; target: string } | { path: string; kind: "folder" };

/** The top folders a system may have beside /usr. */
export const TOP_FOLDERS = ["/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"] as const;

/**
 * The parts of /etc a program needs: users and groups by name, the dynamic linker's cache, time
 * zone, certificates, name service and locale settings, alternatives (/usr/bin/awk points there).
 * resolv.conf and hosts matter only in host mode; in proxy mode the proxy resolves names.
 */
export const ETC_ENTRIES = [
  "/etc/passwd",
  "/etc/group",
  "/etc/nsswitch.conf",
  "/etc/hosts",
  "/etc/host.conf",
  "/etc/resolv.conf",
  "/etc/gai.conf",
  "/etc/services",
  "/etc/protocols",
  "/etc/ld.so.cache",
  "/etc/ld.so.conf",
  "/etc/ld.so.conf.d",
  "/etc/localtime",
  "/etc/timezone",
  "/etc/locale.alias",
  "/etc/locale.conf",
  "/etc/default/locale",
  "/etc/alternatives",
  "/etc/ssl/certs",
  "/etc/ssl/openssl.cnf",
  "/etc/pki/tls/certs",
  "/etc/pki/ca-trust/extracted",
  "/etc/ca-certificates",
  "/etc/crypto-policies",
  "/etc/mime.types",
  "/etc/magic",
  "/etc/os-release",
  "/etc/lsb-release",
  "/etc/debian_version",
  "/etc/terminfo",
  "/etc/inputrc",
  "/etc/gitconfig",
  "/etc/ssh/ssh_config",
  "/etc/ssh/ssh_config.d",
  "/etc/python3",
  "/etc/fonts",
] as const;

/**
 * Secret system paths, and those holding sockets that lead out of any sandbox (the D-Bus and
 * systemd buses under /run, docker's socket): hidden again under a grant of a folder above them,
 * such as `--read /` (a unix socket answers through a read-only mount). Granted by name, they show.
 */
export const SYSTEM_SECRETS = [
  "/etc/shadow",
  "/etc/shadow-",
  "/etc/gshadow",
  "/etc/gshadow-",
  "/etc/sudoers",
  "/etc/sudoers.d",
  "/etc/ssl/private",
  "/etc/ssh",
  "/run",
  "/var/run",
  "/var/lib/docker",
] as const;
