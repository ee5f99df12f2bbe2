import BenchmarkSupport
import Foundation
import PagingCodegen

// Issue 37's scale: a schema the size and shape of GitHub's (over 380 types, read from an
// introspection result of over 1 MB: interfaces, unions, a connection, an edge, an order and an
// order field for each kind of object, long descriptions) and 15 operations written as a GitHub
// client writes them (fragments on interfaces named in lowerCamelCase, inline fragments on a
// union's members, a backward `timeline(last:before:)` connection, mutations), generated in a
// process of its own. Prints the time of reading the introspection JSON and generating, the
// process's peak resident bytes and the inputs' sizes; with `--write DIR`, writes the Swift files
// there (for a compile check).
//
// The schema is written here as SDL, the same every run, and turned into the introspection
// result a server would answer (`CodegenSchema.introspectionJSON()`) before the clock starts:
// the generator is timed on JSON, as it reads a schema `paging schema` or another tool saved.

/// Kinds of object that each get a connection, an edge, an order input and an order field enum,
/// as GitHub's schema does; with the core types below, over 380 types.
let families = [
    "Gist", "GistComment", "Package", "PackageVersion", "PackageFile", "Sponsor", "Sponsorship",
    "SponsorsTier", "Deployment", "DeploymentStatus", "Environment", "CheckRun", "CheckSuite",
    "CheckAnnotation", "StatusContext", "Workflow", "WorkflowRun", "Artifact", "Release", "ReleaseAsset",
    "Milestone", "Project", "ProjectColumn", "ProjectCard", "ProjectV2", "ProjectV2Item", "ProjectV2Field",
    "Team", "TeamDiscussion", "TeamDiscussionComment", "Discussion", "DiscussionComment",
    "DiscussionCategory", "Commit", "CommitComment", "Ref", "Tag", "Language", "Topic", "License",
    "Deploykey", "Webhook", "Invitation", "Enterprise", "EnterpriseMember", "EnterpriseServerInstallation",
    "App", "Installation", "MarketplaceListing", "MarketplaceCategory", "SecurityAdvisory",
    "SecurityVulnerability", "VulnerabilityAlert", "RepositoryRuleset", "BranchProtectionRule",
    "PushAllowance", "ReviewRequest", "ReviewDismissalAllowance", "UserStatus", "SavedReply",
    "PinnedIssue", "PinnedDiscussion", "Mannequin", "VerifiableDomain", "IpAllowListEntry",
    "OrganizationInvitation", "RepositoryInvitation", "Submodule", "Blame", "Stargazer",
]

/// The events of an issue's or a pull request's timeline: objects of the union
/// `IssueTimelineItems`, each with an actor and a time.
let events = [
    "AddedToProjectEvent", "AssignedEvent", "ClosedEvent", "CommentDeletedEvent", "ConnectedEvent",
    "ConvertedNoteToIssueEvent", "CrossReferencedEvent", "DemilestonedEvent", "DisconnectedEvent",
    "LabeledEvent", "LockedEvent", "MarkedAsDuplicateEvent", "MentionedEvent", "MilestonedEvent",
    "MovedColumnsInProjectEvent", "PinnedEvent", "ReferencedEvent", "RemovedFromProjectEvent",
    "RenamedTitleEvent", "ReopenedEvent", "SubscribedEvent", "TransferredEvent", "UnassignedEvent",
    "UnlabeledEvent", "UnlockedEvent", "UnmarkedAsDuplicateEvent", "UnpinnedEvent", "UnsubscribedEvent",
    "UserBlockedEvent", "HeadRefDeletedEvent", "HeadRefForcePushedEvent", "BaseRefChangedEvent",
    "ReviewRequestedEvent", "ReviewDismissedEvent", "MergedEvent", "ReadyForReviewEvent",
    "ConvertToDraftEvent", "AutoMergeEnabledEvent", "AutoMergeDisabledEvent", "DeployedEvent",
]

/// A description as long as GitHub's usually are: they make up much of its schema's size.
func describe(_ subject: String) -> String {
    "\"\"\"\n\(subject). This text stands in for the sentence or two that GitHub's schema gives every "
        + "type, field and argument, which is where most of its 1.3 MB of introspection JSON comes from: "
        + "what it is, who may see it, what it costs a server to resolve, and what changed when.\n\"\"\"\n"
}

func field(_ definition: String, _ subject: String) -> String {
    "  " + describe(subject).replacingOccurrences(of: "\n", with: "\n  ") + definition + "\n"
}

func connectionTypes(of name: String) -> String {
    """
    \(describe("The connection type for \(name)"))type \(name)Connection {
    \(field("edges: [\(name)Edge]", "A list of edges"))\(field("nodes: [\(name)]", "A list of nodes"))\
    \(field("pageInfo: PageInfo!", "Information to aid in pagination"))\
    \(field("totalCount: Int!", "Identifies the total count of items in the connection"))}
    \(describe("An edge in a connection of \(name)"))type \(name)Edge {
    \(field("cursor: String!", "A cursor for use in pagination"))\(field("node: \(name)", "The item at the end of the edge"))}
    \(describe("Ordering options for \(name) connections"))input \(name)Order {
    \(field("field: \(name)OrderField!", "The field to order by"))\
    \(field("direction: OrderDirection!", "The ordering direction"))}
    \(describe("Properties by which \(name) connections can be ordered"))enum \(name)OrderField {
    \(field("CREATED_AT", "Order by creation time"))\(field("UPDATED_AT", "Order by update time"))\
    \(field("NAME", "Order by name"))}

    """
}

func family(_ name: String) -> String {
    """
    \(describe("A \(name) on GitHub"))type \(name) implements Node & UniformResourceLocatable {
    \(field("id: ID!", "The Node ID of the \(name) object"))\(field("name: String", "The name"))\
    \(field("description: String", "The description"))\(field("createdAt: DateTime!", "When it was created"))\
    \(field("updatedAt: DateTime!", "When it was last updated"))\(field("url: URI!", "The HTTP URL"))\
    \(field("resourcePath: URI!", "The HTTP path"))\(field("owner: Actor", "Who owns it"))\
    \(field("databaseId: Int", "The primary key from the database"))}

    """ + connectionTypes(of: name)
}

func event(_ name: String) -> String {
    """
    \(describe("Represents a '\(name)' on a given issue or pull request"))type \(name) implements Node {
    \(field("id: ID!", "The Node ID of the \(name) object"))\(field("actor: Actor", "The actor who triggered the event"))\
    \(field("createdAt: DateTime!", "When the event happened"))\
    \(name == "LabeledEvent" || name == "UnlabeledEvent" ? field("label: Label!", "The label") : "")\
    \(name == "ClosedEvent" ? field("stateReason: IssueStateReason", "Why it was closed") : "")\
    \(name == "RenamedTitleEvent" ? field("previousTitle: String!", "The title before") + field("currentTitle: String!", "The title after") : "")\
    \(name == "AssignedEvent" ? field("assignee: Assignee", "Who was assigned") : "")}

    """
}

/// The types the operations select, as GitHub has them (fewer fields), then the families and events.
func schemaSDL() -> String {
    var sdl = """
        scalar DateTime
        scalar URI
        scalar HTML
        scalar GitObjectID
        scalar GitTimestamp
        scalar Base64String
        scalar X509Certificate
        scalar PreciseDateTime

        enum OrderDirection { ASC DESC }
        enum IssueState { OPEN CLOSED }
        enum IssueStateReason { COMPLETED NOT_PLANNED REOPENED }
        enum PullRequestState { OPEN CLOSED MERGED }
        enum PullRequestReviewState { PENDING COMMENTED APPROVED CHANGES_REQUESTED DISMISSED }
        enum RepositoryPrivacy { PUBLIC PRIVATE }
        enum SearchType { ISSUE REPOSITORY USER DISCUSSION }
        enum CommentAuthorAssociation { MEMBER OWNER MANNEQUIN COLLABORATOR CONTRIBUTOR FIRST_TIME_CONTRIBUTOR FIRST_TIMER NONE }
        enum ReactionContent { THUMBS_UP THUMBS_DOWN LAUGH HOORAY CONFUSED HEART ROCKET EYES }
        enum LockReason { OFF_TOPIC TOO_HEATED RESOLVED SPAM }
        enum MergeableState { MERGEABLE CONFLICTING UNKNOWN }

        type PageInfo { endCursor: String, hasNextPage: Boolean!, hasPreviousPage: Boolean!, startCursor: String }

        interface Node { id: ID! }
        interface UniformResourceLocatable { resourcePath: URI!, url: URI! }
        interface Actor { avatarUrl(size: Int): URI!, login: String!, resourcePath: URI!, url: URI! }
        interface Reactable { id: ID!, reactionGroups: [ReactionGroup!], viewerCanReact: Boolean! }
        interface Comment {
          id: ID!
          author: Actor
          authorAssociation: CommentAuthorAssociation!
          body: String!
          bodyHTML: HTML!
          createdAt: DateTime!
          lastEditedAt: DateTime
          viewerDidAuthor: Boolean!
        }
        interface Closable { closed: Boolean!, closedAt: DateTime, viewerCanClose: Boolean! }
        interface Lockable { activeLockReason: LockReason, locked: Boolean! }
        interface Labelable { labels(first: Int, after: String, orderBy: LabelOrder): LabelConnection }
        interface Assignable { assignees(first: Int, after: String): UserConnection! }
        interface RepositoryOwner {
          id: ID!
          login: String!
          repositories(first: Int, after: String, orderBy: RepositoryOrder, privacy: RepositoryPrivacy): RepositoryConnection!
        }

        type ReactionGroup { content: ReactionContent!, viewerHasReacted: Boolean!, reactors(first: Int): ReactorConnection! }
        type ReactorConnection { totalCount: Int! }

        type User implements Node & Actor & RepositoryOwner & UniformResourceLocatable {
          id: ID!
          login: String!
          name: String
          bio: String
          company: String
          avatarUrl(size: Int): URI!
          resourcePath: URI!
          url: URI!
          createdAt: DateTime!
          followers(first: Int, after: String): UserConnection!
          following(first: Int, after: String): UserConnection!
          repositories(first: Int, after: String, orderBy: RepositoryOrder, privacy: RepositoryPrivacy): RepositoryConnection!
          starredRepositories(first: Int, after: String, orderBy: StarOrder): StarredRepositoryConnection!
          pinnedItems(first: Int): PinnableItemConnection!
          status: UserStatus
        }
        type Organization implements Node & Actor & RepositoryOwner & UniformResourceLocatable {
          id: ID!
          login: String!
          name: String
          description: String
          avatarUrl(size: Int): URI!
          resourcePath: URI!
          url: URI!
          repositories(first: Int, after: String, orderBy: RepositoryOrder, privacy: RepositoryPrivacy): RepositoryConnection!
          teams(first: Int, after: String, orderBy: TeamOrder): TeamConnection!
          membersWithRole(first: Int, after: String): UserConnection!
        }
        type Bot implements Node & Actor & UniformResourceLocatable {
          id: ID!
          login: String!
          avatarUrl(size: Int): URI!
          resourcePath: URI!
          url: URI!
        }
        type Label implements Node {
          id: ID!
          name: String!
          color: String!
          description: String
          isDefault: Boolean!
        }
        type Repository implements Node & UniformResourceLocatable {
          id: ID!
          name: String!
          nameWithOwner: String!
          description: String
          owner: RepositoryOwner!
          isPrivate: Boolean!
          isFork: Boolean!
          stargazerCount: Int!
          forkCount: Int!
          primaryLanguage: Language
          resourcePath: URI!
          url: URI!
          updatedAt: DateTime!
          issue(number: Int!): Issue
          issues(first: Int, after: String, last: Int, before: String, states: [IssueState!], orderBy: IssueOrder, labels: [String!]): IssueConnection!
          pullRequest(number: Int!): PullRequest
          pullRequests(first: Int, after: String, states: [PullRequestState!], orderBy: PullRequestOrder): PullRequestConnection!
          labels(first: Int, after: String, orderBy: LabelOrder): LabelConnection
          releases(first: Int, after: String, orderBy: ReleaseOrder): ReleaseConnection!
          discussions(first: Int, after: String, orderBy: DiscussionOrder): DiscussionConnection!
          stargazers(first: Int, after: String, orderBy: StarOrder): StargazerConnection!
          defaultBranchRef: Ref
        }
        type Issue implements Node & Comment & Closable & Lockable & Labelable & Assignable & Reactable & UniformResourceLocatable {
          id: ID!
          number: Int!
          title: String!
          state: IssueState!
          stateReason: IssueStateReason
          author: Actor
          authorAssociation: CommentAuthorAssociation!
          body: String!
          bodyHTML: HTML!
          createdAt: DateTime!
          lastEditedAt: DateTime
          viewerDidAuthor: Boolean!
          closed: Boolean!
          closedAt: DateTime
          viewerCanClose: Boolean!
          activeLockReason: LockReason
          locked: Boolean!
          labels(first: Int, after: String, orderBy: LabelOrder): LabelConnection
          assignees(first: Int, after: String): UserConnection!
          reactionGroups: [ReactionGroup!]
          viewerCanReact: Boolean!
          resourcePath: URI!
          url: URI!
          repository: Repository!
          milestone: Milestone
          comments(first: Int, after: String, last: Int, before: String): IssueCommentConnection!
          timelineItems(first: Int, after: String, last: Int, before: String, since: DateTime): IssueTimelineItemsConnection!
        }
        type PullRequest implements Node & Comment & Closable & Lockable & Labelable & Assignable & Reactable & UniformResourceLocatable {
          id: ID!
          number: Int!
          title: String!
          state: PullRequestState!
          isDraft: Boolean!
          mergeable: MergeableState!
          author: Actor
          authorAssociation: CommentAuthorAssociation!
          body: String!
          bodyHTML: HTML!
          createdAt: DateTime!
          lastEditedAt: DateTime
          viewerDidAuthor: Boolean!
          closed: Boolean!
          closedAt: DateTime
          viewerCanClose: Boolean!
          activeLockReason: LockReason
          locked: Boolean!
          labels(first: Int, after: String, orderBy: LabelOrder): LabelConnection
          assignees(first: Int, after: String): UserConnection!
          reactionGroups: [ReactionGroup!]
          viewerCanReact: Boolean!
          resourcePath: URI!
          url: URI!
          repository: Repository!
          headRefName: String!
          baseRefName: String!
          additions: Int!
          deletions: Int!
          reviews(first: Int, after: String, states: [PullRequestReviewState!]): PullRequestReviewConnection
          timelineItems(first: Int, after: String, last: Int, before: String, since: DateTime): IssueTimelineItemsConnection!
        }
        type IssueComment implements Node & Comment & Reactable & UniformResourceLocatable {
          id: ID!
          author: Actor
          authorAssociation: CommentAuthorAssociation!
          body: String!
          bodyHTML: HTML!
          createdAt: DateTime!
          lastEditedAt: DateTime
          viewerDidAuthor: Boolean!
          reactionGroups: [ReactionGroup!]
          viewerCanReact: Boolean!
          resourcePath: URI!
          url: URI!
          isMinimized: Boolean!
          issue: Issue!
        }
        type PullRequestReview implements Node & Comment & Reactable {
          id: ID!
          author: Actor
          authorAssociation: CommentAuthorAssociation!
          body: String!
          bodyHTML: HTML!
          createdAt: DateTime!
          lastEditedAt: DateTime
          viewerDidAuthor: Boolean!
          reactionGroups: [ReactionGroup!]
          viewerCanReact: Boolean!
          state: PullRequestReviewState!
          submittedAt: DateTime
        }
        type Reaction implements Node { id: ID!, content: ReactionContent!, createdAt: DateTime!, user: User }
        type StarredRepositoryEdge { cursor: String!, node: Repository!, starredAt: DateTime! }
        type StarredRepositoryConnection { edges: [StarredRepositoryEdge], pageInfo: PageInfo!, totalCount: Int! }
        input StarOrder { field: StarOrderField!, direction: OrderDirection! }
        enum StarOrderField { STARRED_AT }

        union IssueTimelineItems = IssueComment | \(events.joined(separator: " | "))
        union SearchResultItem = Issue | PullRequest | Repository | User | Organization | Discussion
        union PinnableItem = Repository | Gist
        union Assignee = User | Bot | Mannequin | Organization
        type PinnableItemConnection { nodes: [PinnableItem], totalCount: Int! }
        type SearchResultItemConnection {
          edges: [SearchResultItemEdge]
          nodes: [SearchResultItem]
          pageInfo: PageInfo!
          issueCount: Int!
          repositoryCount: Int!
          userCount: Int!
        }
        type SearchResultItemEdge { cursor: String!, node: SearchResultItem, textMatches: [TextMatch] }
        type TextMatch { fragment: String!, property: String! }

        input AddCommentInput { subjectId: ID!, body: String!, clientMutationId: String }
        type AddCommentPayload { clientMutationId: String, commentEdge: IssueCommentEdge, subject: Node }
        input CloseIssueInput { issueId: ID!, stateReason: IssueStateReason, clientMutationId: String }
        type CloseIssuePayload { clientMutationId: String, issue: Issue }
        input AddReactionInput { subjectId: ID!, content: ReactionContent!, clientMutationId: String }
        type AddReactionPayload { reaction: Reaction, subject: Reactable }
        input AddLabelsToLabelableInput { labelableId: ID!, labelIds: [ID!]!, clientMutationId: String }
        type AddLabelsToLabelablePayload { labelable: Labelable }

        type Query {
          viewer: User!
          node(id: ID!): Node
          nodes(ids: [ID!]!): [Node]!
          repository(owner: String!, name: String!, followRenames: Boolean = true): Repository
          user(login: String!): User
          organization(login: String!): Organization
          search(query: String!, type: SearchType!, first: Int, after: String, last: Int, before: String): SearchResultItemConnection!
          repositoryOwner(login: String!): RepositoryOwner
        }
        type Mutation {
          addComment(input: AddCommentInput!): AddCommentPayload
          closeIssue(input: CloseIssueInput!): CloseIssuePayload
          addReaction(input: AddReactionInput!): AddReactionPayload
          addLabelsToLabelable(input: AddLabelsToLabelableInput!): AddLabelsToLabelablePayload
        }

        """
    for name in [
        "User", "Organization", "Repository", "Issue", "PullRequest", "IssueComment", "Label",
        "PullRequestReview", "Reaction", "IssueTimelineItems",
    ] {
        sdl += connectionTypes(of: name)
    }
    sdl += families.map(family).joined()
    sdl += events.map(event).joined()
    return sdl
}

/// Fifteen operations as a GitHub client writes them.
func documents() -> [(name: String, text: String)] {
    let fragments = """
        fragment nodeFields on Node { id }
        fragment actorFields on Actor { login avatarUrl(size: 48) url }
        fragment commentFields on Comment {
          author { ...actorFields }
          authorAssociation body createdAt lastEditedAt viewerDidAuthor
        }
        fragment reactableFields on Reactable { reactionGroups { content viewerHasReacted reactors(first: 0) { totalCount } } }
        fragment labelFields on Label { id name color }
        fragment issueFields on Issue {
          ...nodeFields
          number title state createdAt url
          author { ...actorFields }
          labels(first: 10) { nodes { ...labelFields } }
          comments(first: 0) { totalCount }
        }
        fragment pullRequestFields on PullRequest {
          id number title prState: state isDraft mergeable headRefName baseRefName additions deletions
          author { ...actorFields ... on User { name } }
        }
        fragment repositoryFields on Repository {
          id name nameWithOwner description isPrivate isFork stargazerCount forkCount url updatedAt
          owner { login ... on Organization { name } }
          primaryLanguage { name }
        }
        """
    let operations = [
        "query viewerProfile { viewer { ...actorFields name bio company createdAt followers(first: 0) { totalCount } following(first: 0) { totalCount } status { id name } } }",
        """
        query repositoryIssues($owner: String!, $name: String!, $first: Int = 30, $after: String, $states: [IssueState!]) {
          repository(owner: $owner, name: $name) {
            ...repositoryFields
            issues(first: $first, after: $after, states: $states, orderBy: {field: UPDATED_AT, direction: DESC}) @connection(key: "Repository_issues") {
              totalCount
              edges { node { ...issueFields } }
            }
          }
        }
        """,
        """
        query issueTimeline($owner: String!, $name: String!, $number: Int!, $last: Int = 30, $before: String) {
          repository(owner: $owner, name: $name) {
            issue(number: $number) {
              ...issueFields
              ...commentFields
              ...reactableFields
              timelineItems(last: $last, before: $before) @connection(key: "Issue_timelineItems") {
                edges {
                  node {
                    __typename
                    ... on IssueComment { ...nodeFields ...commentFields ...reactableFields isMinimized }
                    ... on LabeledEvent { actor { ...actorFields } createdAt label { ...labelFields } }
                    ... on UnlabeledEvent { actor { ...actorFields } createdAt label { ...labelFields } }
                    ... on ClosedEvent { actor { ...actorFields } createdAt stateReason }
                    ... on ReopenedEvent { actor { ...actorFields } createdAt }
                    ... on AssignedEvent { actor { ...actorFields } assignee { ... on User { login } ... on Bot { login } } }
                    ... on RenamedTitleEvent { previousTitle currentTitle }
                    ... on CrossReferencedEvent { createdAt }
                  }
                }
              }
            }
          }
        }
        """,
        """
        query pullRequest($owner: String!, $name: String!, $number: Int!) {
          repository(owner: $owner, name: $name) {
            pullRequest(number: $number) {
              ...pullRequestFields
              ...reactableFields
              reviews(first: 20, states: [APPROVED, CHANGES_REQUESTED]) { nodes { ...commentFields state submittedAt } }
              labels(first: 10) { nodes { ...labelFields } }
            }
          }
        }
        """,
        """
        query search($query: String!, $type: SearchType!, $first: Int = 20, $after: String) {
          search(query: $query, type: $type, first: $first, after: $after) @connection(key: "search") {
            issueCount repositoryCount userCount
            edges {
              textMatches { fragment property }
              node {
                ... on Issue { ...issueFields }
                ... on PullRequest { ...pullRequestFields }
                ... on Repository { ...repositoryFields }
                ... on User { ...actorFields displayName: name }
                ... on Organization { ...actorFields displayName: name }
              }
            }
          }
        }
        """,
        """
        query userRepositories($login: String!, $first: Int = 20, $after: String, $privacy: RepositoryPrivacy) {
          user(login: $login) {
            ...actorFields
            repositories(first: $first, after: $after, privacy: $privacy, orderBy: {field: UPDATED_AT, direction: DESC}) @connection(key: "User_repositories") {
              edges { node { ...repositoryFields } }
            }
            pinnedItems(first: 6) { nodes { ... on Repository { ...repositoryFields } ... on Gist { id name } } }
          }
        }
        """,
        """
        query organizationTeams($login: String!, $first: Int = 20, $after: String) {
          organization(login: $login) {
            ...actorFields
            name
            teams(first: $first, after: $after) @connection(key: "Organization_teams") { nodes { id name description url } }
            membersWithRole(first: 0) { totalCount }
          }
        }
        """,
        """
        query nodeByID($id: ID!) {
          node(id: $id) {
            ...nodeFields
            ... on Issue { ...issueFields }
            ... on PullRequest { ...pullRequestFields }
            ... on Repository { ...repositoryFields }
            ... on Reactable { ...reactableFields }
          }
        }
        """,
        """
        query repositoryReleases($owner: String!, $name: String!, $first: Int = 10, $after: String) {
          repository(owner: $owner, name: $name) {
            id
            releases(first: $first, after: $after, orderBy: {field: CREATED_AT, direction: DESC}) @connection(key: "Repository_releases") {
              nodes { id name description createdAt url owner { ...actorFields } }
            }
          }
        }
        """,
        """
        query repositoryDiscussions($owner: String!, $name: String!, $first: Int = 10, $after: String) {
          repository(owner: $owner, name: $name) {
            id
            discussions(first: $first, after: $after) @connection(key: "Repository_discussions") {
              edges { node { id name description updatedAt owner { login } } }
            }
          }
        }
        """,
        """
        query stargazers($owner: String!, $name: String!, $first: Int = 100, $after: String) {
          repository(owner: $owner, name: $name) {
            stargazerCount
            stargazers(first: $first, after: $after) @connection(key: "Repository_stargazers") {
              edges { cursor node { id name createdAt } }
            }
          }
        }
        """,
        """
        query starred($first: Int = 30, $after: String) {
          viewer {
            starredRepositories(first: $first, after: $after, orderBy: {field: STARRED_AT, direction: DESC}) @connection(key: "Viewer_starred") {
              edges { starredAt node { ...repositoryFields } }
            }
          }
        }
        """,
        """
        mutation addComment($subjectId: ID!, $body: String!) {
          addComment(input: {subjectId: $subjectId, body: $body}) {
            commentEdge { cursor node { ...nodeFields ...commentFields url } }
            subject { ...nodeFields }
          }
        }
        """,
        """
        mutation closeIssue($input: CloseIssueInput!) {
          closeIssue(input: $input) { issue { ...issueFields closed closedAt stateReason } }
        }
        """,
        """
        mutation react($input: AddReactionInput!) {
          addReaction(input: $input) { reaction { id content } subject { ...reactableFields ... on Issue { number } } }
        }
        """,
    ]
    return [("Fragments.graphql", fragments)]
        + operations.enumerated().map { index, text in ("Operation\(index + 1).graphql", text) }
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data((message + "\n").utf8))
    exit(1)
}

// The introspection result, made before the clock starts.
let introspection: String
let types: Int
do {
    let sdlSchema = try CodegenSchema(text: schemaSDL(), file: "github.graphqls")
    let json = try await sdlSchema.introspectionJSON()
    introspection = String(decoding: json, as: UTF8.self)
    let result = try JSONSerialization.jsonObject(with: json) as? [String: Any]
    let schema = (result?["data"] as? [String: Any])?["__schema"] as? [String: Any]
    let named = (schema?["types"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
    types = named.filter { !$0.hasPrefix("__") }.count
} catch {
    fail("the schema does not build: \(error)")
}
let inputs = documents()
let start = ContinuousClock.now
do {
    let schema = try CodegenSchema(text: introspection, file: "github.json")
    let files = try Codegen.generate(schema: schema, documents: inputs)
    let elapsed = ContinuousClock.now - start
    let bytes = files.reduce(0) { $0 + $1.contents.utf8.count }
    try writeIfAsked(files.map { ($0.name, $0.contents) })
    let operations = inputs.count - 1  // one file of fragments, then a file an operation
    print(
        "types=\(types) schemaBytes=\(introspection.utf8.count) operations=\(operations) files=\(files.count) outputBytes=\(bytes) seconds=\(seconds(elapsed)) peakResidentBytes=\(peakResidentBytes())"
    )
} catch {
    fail("generation failed: \(error)")
}
