/*
 * bancada-enter: how a command enters a running local box, in one exec (see src/driver/local/enter-helper.ts).
 *
 *   bancada-enter <pid> <startTime> <boxId> <cwd> <cgroup.procs>... -- <program> [args...]
 *
 * As host root, on the host: joins each cgroup.procs given (its own pid), opens the namespaces, root and
 * identity of <pid> (the box's pid 1), checks that <pid> is still the process started at <startTime> (field 22
 * of /proc/<pid>/stat) once the namespace files are open (so a reused pid cannot hand it the host's), drops its
 * supplementary groups, then joins the box's mount, uts, ipc, net, pid and cgroup namespaces and last its user
 * namespace, and changes root to the box's. It forks (a pid namespace holds only children) and waits for the
 * child, ending as the child ended (the same exit status, or the same signal re-raised).
 * The child becomes root OF THE BOX'S user namespace (the box's unprivileged host uid), drops every capability
 * for good (bounding set, ambient, inheritable, permitted, effective) with no_new_privs, and only then reads the
 * box's id file (/run/bancada/box-id, read-only, only in that box), changes to <cwd>, reports "started" on fd 3
 * and execs the program with its environment: the variables given as BANCADA_ENV_<name> become <name>, so no
 * variable of the caller (LD_PRELOAD...) ever reaches this program while it is privileged, as it is loaded.
 * Nothing of the box's files is run or loaded before every privilege is gone.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <linux/capability.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

static void fail(int code, const char *what) {
  fprintf(stderr, "bancada: %s: %s\n", what, strerror(errno));
  exit(code);
}

/* Field 22 of /proc/<pid>/stat (the start time), or NULL. The command name (field 2) may hold spaces: read after its ')'. */
static char *start_time(const char *pid) {
  static char text[4096];
  char file[64];
  snprintf(file, sizeof file, "/proc/%s/stat", pid);
  int fd = open(file, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return NULL;
  ssize_t length = read(fd, text, sizeof text - 1);
  close(fd);
  if (length <= 0) return NULL;
  text[length] = '\0';
  char *field = strrchr(text, ')');
  if (!field) return NULL;
  field += 2; /* field 3 */
  for (int index = 3; index < 22 && field; index++) {
    field = strchr(field, ' ');
    if (field) field++;
  }
  if (!field) return NULL;
  field[strcspn(field, " ")] = '\0';
  return field;
}

static int open_namespace(const char *pid, const char *name) {
  char file[64];
  snprintf(file, sizeof file, "/proc/%s/ns/%s", pid, name);
  int fd = open(file, O_RDONLY | O_CLOEXEC);
  if (fd < 0) fail(125, "the box is not running (its namespaces are gone)");
  return fd;
}

static void drop_privileges(void) {
  if (setresgid(0, 0, 0) != 0) fail(125, "setresgid in the box");
  if (setresuid(0, 0, 0) != 0) fail(125, "setresuid in the box");
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) fail(125, "no_new_privs");
  for (int cap = 0; cap < 64; cap++)
    if (prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) != 0 && errno != EINVAL) fail(125, "dropping the bounding set");
  if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) != 0 && errno != EINVAL) fail(125, "clearing ambient capabilities");
  struct __user_cap_header_struct header = {_LINUX_CAPABILITY_VERSION_3, 0};
  struct __user_cap_data_struct data[2];
  memset(data, 0, sizeof data);
  if (syscall(SYS_capset, &header, data) != 0) fail(125, "dropping capabilities");
}

/* The environment the program gets: BANCADA_ENV_<name>=v as <name>=v (after the base variables, so they win). */
static char **program_environment(void) {
  size_t count = 0;
  while (environ[count]) count++;
  char **base = calloc(count + 1, sizeof *base);
  char **extra = calloc(count + 1, sizeof *extra);
  char **result = calloc(count + 1, sizeof *result);
  if (!base || !extra || !result) fail(125, "memory");
  size_t bases = 0, extras = 0;
  const char prefix[] = "BANCADA_ENV_";
  for (size_t index = 0; index < count; index++) {
    if (strncmp(environ[index], prefix, sizeof prefix - 1) == 0)
      extra[extras++] = environ[index] + sizeof prefix - 1;
    else
      base[bases++] = environ[index];
  }
  size_t kept = 0;
  /* A base variable overridden by an extra one of the same name is left out. */
  for (size_t index = 0; index < bases; index++) {
    size_t name = strcspn(base[index], "=");
    int overridden = 0;
    for (size_t other = 0; other < extras && !overridden; other++)
      overridden = strncmp(extra[other], base[index], name + 1) == 0;
    if (!overridden) result[kept++] = base[index];
  }
  for (size_t index = 0; index < extras; index++) result[kept++] = extra[index];
  result[kept] = NULL;
  free(base);
  free(extra);
  return result;
}

int main(int argc, char **argv) {
  if (argc < 7) {
    fprintf(stderr, "usage: bancada-enter <pid> <startTime> <boxId> <cwd> <cgroup.procs>... -- <program> [args...]\n");
    return 125;
  }
  const char *pid = argv[1], *started = argv[2], *box_id = argv[3], *cwd = argv[4];
  int index = 5;
  char self[32];
  snprintf(self, sizeof self, "%d", (int)getpid());
  for (; index < argc && strcmp(argv[index], "--") != 0; index++) {
    int fd = open(argv[index], O_WRONLY | O_CLOEXEC);
    if (fd < 0 || write(fd, self, strlen(self)) < 0) fail(125, argv[index]);
    close(fd);
  }
  if (index + 1 >= argc) {
    fprintf(stderr, "bancada: no program after --\n");
    return 125;
  }
  char **program = argv + index + 1;

  static const struct {
    const char *name;
    int type;
  } others[] = {{"mnt", CLONE_NEWNS},   {"uts", CLONE_NEWUTS}, {"ipc", CLONE_NEWIPC},
                {"net", CLONE_NEWNET}, {"pid", CLONE_NEWPID}, {"cgroup", CLONE_NEWCGROUP}};
  int fds[6];
  for (int n = 0; n < 6; n++) fds[n] = open_namespace(pid, others[n].name);
  int user = open_namespace(pid, "user");
  char root_file[64];
  snprintf(root_file, sizeof root_file, "/proc/%s/root", pid);
  int root = open(root_file, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (root < 0) fail(125, "the box is not running (its root is gone)");
  /* The files are open: they name that process's namespaces even if the pid is reused from now on. */
  const char *now = start_time(pid);
  if (!now || strcmp(now, started) != 0) {
    fprintf(stderr, "bancada: the box is not running\n");
    return 125;
  }
  if (setgroups(0, NULL) != 0) fail(125, "setgroups");
  for (int n = 0; n < 6; n++)
    if (setns(fds[n], others[n].type) != 0) fail(125, others[n].name);
  if (setns(user, CLONE_NEWUSER) != 0) fail(125, "user namespace");
  if (fchdir(root) != 0 || chroot(".") != 0 || chdir("/") != 0) fail(125, "the box's root");
  for (int n = 0; n < 6; n++) close(fds[n]);
  close(user);
  close(root);

  pid_t child = fork();
  if (child < 0) fail(125, "fork");
  if (child == 0) {
    drop_privileges();
    char id[128] = "";
    int fd = open("/run/bancada/box-id", O_RDONLY | O_CLOEXEC);
    ssize_t length = fd < 0 ? -1 : read(fd, id, sizeof id - 1);
    if (fd >= 0) close(fd);
    if (length > 0) id[strcspn(id, "\n")] = '\0';
    if (length <= 0 || strcmp(id, box_id) != 0) {
      fprintf(stderr, "bancada: the box is not running\n");
      _exit(125);
    }
    if (chdir(cwd) != 0) {
      fprintf(stderr, "bancada: the working directory %s does not exist in the box\n", cwd);
      _exit(126);
    }
    environ = program_environment();
    if (write(3, "1", 1) < 0) { /* nobody listens for it: fine */
    }
    close(3);
    execvp(program[0], program);
    int code = errno == ENOENT ? 127 : 126;
    fprintf(stderr, "bancada: %s: %s\n", program[0], strerror(errno));
    _exit(code);
  }
  close(3);
  int status;
  while (waitpid(child, &status, 0) < 0)
    if (errno != EINTR) fail(125, "waitpid");
  if (WIFSIGNALED(status)) {
    int signal_number = WTERMSIG(status);
    signal(signal_number, SIG_DFL);
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, signal_number);
    sigprocmask(SIG_UNBLOCK, &set, NULL);
    kill(getpid(), signal_number);
    return 128 + signal_number;
  }
  return WEXITSTATUS(status);
}
